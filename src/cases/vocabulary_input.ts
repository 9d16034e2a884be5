// A vocabulary as a tool parameter takes it: the canonical value, its Hebrew label, or an older word, all
// mapped on input only; anything else is invalid_args listing what is accepted. Outcomes and practice areas
// are read this way.
import { invalidArgs } from '../contract/errors.ts';
import { normalizeHebrew } from '../hebrew/text.ts';

export interface VocabularyInput<T extends string> {
  /** Every value the parameter accepts, for the refusal that lists them. */
  accepted: readonly string[];
  /** The canonical value a word names, or null. */
  parse(value: string): T | null;
  /** The canonical value of a parameter's word, or invalid_args naming the parameter and what it accepts. */
  of(value: string, path: string): T;
}

export function vocabularyInput<T extends string>(o: {
  values: readonly T[];
  labels: Readonly<Record<T, string>>;
  /** Older words (Latin keys are matched case- and separator-insensitively, Hebrew ones after normalising). */
  legacy: Readonly<Record<string, T>>;
  /** What a value is, in the refusal: "an outcome", "a practice area". */
  noun: string;
  /** Said after the accepted values in the refusal's hint. */
  note?: string;
}): VocabularyInput<T> {
  const accepted = [...o.values, ...Object.values<string>(o.labels), ...Object.keys(o.legacy)];
  const byWord = new Map<string, T>(
    [
      ...Object.entries<string>(o.labels).map(([k, label]) => [label, k] as const),
      ...Object.entries(o.legacy),
    ].map(([word, value]) => [normalizeHebrew(word), value as T]),
  );
  const parse = (value: string): T | null => {
    const v = value
      .trim()
      .toLowerCase()
      .replaceAll(/[\s-]+/g, '_');
    if ((o.values as readonly string[]).includes(v)) return v as T;
    return o.legacy[v] ?? byWord.get(normalizeHebrew(value)) ?? null;
  };
  return {
    accepted,
    parse,
    of(value, path) {
      const found = parse(value);
      if (found === null) {
        throw invalidArgs(
          [{ path, message: `"${value}" is not ${o.noun}` }],
          `Use one of: ${accepted.join(', ')}.${o.note === undefined ? '' : ` ${o.note}`}`,
          { details: { accepted } },
        );
      }
      return found;
    },
  };
}
