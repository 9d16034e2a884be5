// Every rule-based extractor, in the order a new document is queued for them: the job handlers (entry/
// registries.ts) and the reader threads that run their pure parts (documents/reader_thread.ts) read this list.
import { analysisExtractors } from '../analysis/extractors.ts';
import { holdingExtractor } from '../halacha/extractor.ts';
import { precedentExtractors } from '../precedents/extractors.ts';
import { styleExtractor } from '../style/extractor.ts';
import type { Extractor, FindDocument } from './framework.ts';

/** The extractors of library, internal and style documents (holdings, the style corpus). */
export const documentExtractors: readonly Extractor[] = [holdingExtractor, styleExtractor];

export const allExtractors: readonly Extractor[] = [
  ...analysisExtractors,
  ...precedentExtractors,
  ...documentExtractors,
];

/** Runs the pure part of the extractor of this kind (in a reader thread); an unknown kind is an error. */
export function findWith(
  kind: string,
  document: FindDocument,
  pages: readonly string[],
  input: unknown,
): unknown {
  const extractor = allExtractors.find((e) => e.kind === kind);
  if (extractor?.find === undefined) throw new Error(`No extractor of kind ${kind} has a pure part to run`);
  return extractor.find(document, pages, input);
}
