// The one resolution of a cited number to the library: the library rulings and internal decisions known by a
// proceeding key (src/legal/proceedings.ts), whether the uploader gave the number (documents.number) or the
// metadata extractor read it (decision_metadata.number_key), earliest added first. The citation graph,
// draft_validate and the drafting context all resolve through here, so a ruling the library knows is found
// however its number came in. A document stored with a bare number («1108/97») answers a key of that number
// when no document names the proceeding.
import { and, eq, inArray, isNotNull, or, sql } from '../db/orm.ts';
import { documents } from '../db/schema/documents.ts';
import { decisionMetadata } from '../db/schema/precedents.ts';
import type { DbOrTx } from '../db/types.ts';
import { normalizeProceeding, proceedingKind } from '../legal/proceedings.ts';

export interface CitedDocument {
  id: string;
  corpus: 'library' | 'internal';
  /** The number as given, else as the metadata extractor read it. */
  number: string;
  /** The parties as given (the name a citation is checked against). */
  parties: string | null;
  status: string;
  pageCount: number | null;
}

/** A key's kind and number («עע"מ», «9001/19»), or null for a key that names no proceeding. */
function partsOf(key: string): { kind: string; number: string } | null {
  const at = key.lastIndexOf(' ');
  if (at < 0) return null;
  const kind = key.slice(0, at);
  return proceedingKind(kind) === null ? null : { kind, number: key.slice(at + 1) };
}

/** The library and internal documents of each key, earliest added first; a key nothing knows is absent. */
export async function resolveCited(
  db: DbOrTx,
  keys: readonly string[],
): Promise<Map<string, CitedDocument[]>> {
  const out = new Map<string, CitedDocument[]>();
  const wanted = [...new Set(keys)];
  if (wanted.length === 0) return out;
  // A key's leading digits are in every written form of its number (leading zeros aside): the given numbers
  // that may read as one of the keys, read exactly below.
  const digits = [
    ...new Set(wanted.flatMap((k) => (partsOf(k) === null ? [] : [/\d+/.exec(k)?.[0] ?? '']))),
  ].filter((d) => d !== '');
  const given =
    digits.length === 0
      ? sql`false`
      : and(
          isNotNull(documents.number),
          sql`${documents.number} like any(${sql.param(digits.map((d) => `%${d}%`))}::text[])`,
        );
  const rows = await db
    .select({
      id: documents.id,
      corpus: documents.corpus,
      number: documents.number,
      readNumber: decisionMetadata.number,
      numberKey: decisionMetadata.numberKey,
      parties: documents.parties,
      status: documents.status,
      pageCount: documents.pageCount,
    })
    .from(documents)
    .leftJoin(decisionMetadata, eq(decisionMetadata.documentId, documents.id))
    .where(
      and(
        inArray(documents.corpus, ['library', 'internal']),
        or(inArray(decisionMetadata.numberKey, wanted), given),
      ),
    )
    .orderBy(documents.createdAt, documents.id);
  const want = new Set(wanted);
  const bare: { row: (typeof rows)[number]; doc: CitedDocument }[] = [];
  const add = (key: string, doc: CitedDocument) => {
    const list = out.get(key) ?? [];
    if (!list.some((d) => d.id === doc.id)) out.set(key, [...list, doc]);
  };
  for (const r of rows) {
    const givenKey = r.number === null ? null : normalizeProceeding(r.number);
    const doc: CitedDocument = {
      id: r.id,
      corpus: r.corpus as CitedDocument['corpus'],
      number: r.number ?? r.readNumber ?? r.numberKey ?? '',
      parties: r.parties,
      status: r.status,
      pageCount: r.pageCount,
    };
    for (const k of [givenKey, r.numberKey]) if (k !== null && want.has(k)) add(k, doc);
    if (r.number !== null && givenKey === null) bare.push({ row: r, doc });
  }
  for (const key of wanted) {
    const parts = partsOf(key);
    if (out.has(key) || parts === null) continue;
    for (const b of bare)
      if (normalizeProceeding(`${parts.kind} ${b.row.number ?? ''}`) === key) add(key, b.doc);
  }
  return out;
}

/** The document each key resolves to (the earliest added of its documents), among `keys`. */
export async function resolveKeys(db: DbOrTx, keys: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [key, docs] of await resolveCited(db, keys)) if (docs[0] !== undefined) out.set(key, docs[0].id);
  return out;
}
