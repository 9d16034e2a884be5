// The authorities a citation can resolve to: the library's rulings and the committee's own decisions, by the
// number given with them or read from them (src/precedents/resolve.ts). A cited source's pages are read once
// per validation and indexed for its quotes; a source whose text is not ready cannot be checked.
import { asc, inArray } from '../db/orm.ts';
import { documentPages } from '../db/schema/documents.ts';
import type { DbOrTx } from '../db/types.ts';
import type { CitedDocument } from '../precedents/resolve.ts';
import { type FoundCitation, type Pinpoint, partiesAgreement } from './citations.ts';
import { indexSource, type SourceIndex } from './quotes.ts';

export const citationVerdicts = [
  'resolved',
  'not_found',
  'wrong_name',
  'wrong_pinpoint',
  'could_not_check',
] as const;
export type CitationVerdict = (typeof citationVerdicts)[number];

/** Below this share of the cited parties' words found in the source's parties, the name is wrong. */
export const PARTIES_AGREE_AT = 0.5;
/** The text of all cited sources read in one validation: past it, a source is could_not_check. */
export const MAX_SOURCE_CHARS = 4_000_000;

export type Source = CitedDocument;

export interface LoadedSource extends Source {
  index: SourceIndex;
  /** The paragraph numbers the source's text has («12.» at a line's start). */
  paragraphs: Set<number>;
}

const PARAGRAPH_NUMBER = /(?:^|\n)\s*(\d{1,4})\s*[.)]\s/g;

/** Reads and indexes the pages of the given sources, within the cap; the rest come back as too large. */
export async function loadSourceTexts(
  db: DbOrTx,
  sources: readonly Source[],
): Promise<{ loaded: Map<string, LoadedSource>; tooLarge: Set<string> }> {
  const loaded = new Map<string, LoadedSource>();
  const tooLarge = new Set<string>();
  const ready = sources.filter((s) => s.status === 'ready');
  if (ready.length === 0) return { loaded, tooLarge };
  const pages = await db
    .select()
    .from(documentPages)
    .where(
      inArray(
        documentPages.documentId,
        ready.map((s) => s.id),
      ),
    )
    .orderBy(asc(documentPages.documentId), asc(documentPages.page));
  const byDoc = new Map<string, string[]>();
  for (const p of pages) byDoc.set(p.documentId, [...(byDoc.get(p.documentId) ?? []), p.text]);
  let read = 0;
  for (const s of ready) {
    const texts = byDoc.get(s.id) ?? [];
    const size = texts.reduce((n, t) => n + t.length, 0);
    if (read + size > MAX_SOURCE_CHARS) {
      tooLarge.add(s.id);
      continue;
    }
    read += size;
    const paragraphs = new Set<number>();
    for (const t of texts) for (const m of t.matchAll(PARAGRAPH_NUMBER)) paragraphs.add(Number(m[1]));
    loaded.set(s.id, { ...s, index: indexSource(texts), paragraphs });
  }
  return { loaded, tooLarge };
}

export interface Resolution {
  verdict: CitationVerdict;
  source: Source | null;
  detail: string | null;
}

/** Whether a source has the paragraph or page a pinpoint names (null: it cannot be told). */
function hasPinpoint(source: LoadedSource, pin: Pinpoint): boolean | null {
  if (pin.kind === 'page') return source.pageCount === null ? null : pin.n >= 1 && pin.n <= source.pageCount;
  if (source.paragraphs.size === 0) return null;
  return source.paragraphs.has(pin.n);
}

/** The verdict on one citation, given the sources its number names and their loaded texts. */
export function resolveCitation(
  c: Pick<FoundCitation, 'key' | 'parties' | 'pinpoint'>,
  candidates: readonly Source[],
  texts: { loaded: Map<string, LoadedSource>; tooLarge: Set<string> },
): Resolution {
  if (candidates.length === 0) {
    return {
      verdict: 'not_found',
      source: null,
      detail: 'No ruling or decision with this number in the library or the internal decisions',
    };
  }
  // Of several sources under one number, the one whose parties agree best.
  const ranked = [...candidates].sort(
    (a, b) =>
      partiesAgreement(c.parties ?? '', b.parties ?? '') - partiesAgreement(c.parties ?? '', a.parties ?? ''),
  );
  const source = ranked[0] as Source;
  if (
    c.parties !== null &&
    source.parties !== null &&
    partiesAgreement(c.parties, source.parties) < PARTIES_AGREE_AT
  ) {
    return { verdict: 'wrong_name', source, detail: `The source's parties are «${source.parties}»` };
  }
  if (c.pinpoint !== null) {
    const text = texts.loaded.get(source.id);
    if (text === undefined) {
      const why = texts.tooLarge.has(source.id)
        ? 'over the size cap of one validation'
        : `its text is ${source.status}`;
      return { verdict: 'could_not_check', source, detail: `The pinpoint cannot be checked: ${why}` };
    }
    const has = hasPinpoint(text, c.pinpoint);
    if (has === false) {
      const what =
        c.pinpoint.kind === 'page'
          ? `page ${c.pinpoint.n} (it has ${source.pageCount})`
          : `paragraph ${c.pinpoint.n}`;
      return { verdict: 'wrong_pinpoint', source, detail: `The source has no ${what}` };
    }
    if (has === null) {
      return {
        verdict: 'could_not_check',
        source,
        detail: 'The source has no numbered paragraphs to check the pinpoint against',
      };
    }
  }
  return { verdict: 'resolved', source, detail: null };
}
