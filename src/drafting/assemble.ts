// The draft assembled from the current blocks (docs/drafting.md "The draft"): blocks in the decision's order,
// each kind's heading once, a discussion block's title as a subheading, the body's paragraphs numbered
// continuously (the header and the signature are not numbered), and a visible placeholder for each
// required block not yet written. draft_get renders it as markdown or text; draft_export as DOCX.

import { type BlockKind, blockKinds, type Citation } from '../db/schema/drafting.ts';
import { citationKey } from '../legal/proceedings.ts';
import { findCitations, partiesAgreement } from '../review/citations.ts';
import { PARTIES_AGREE_AT } from '../review/sources.ts';
import { blockHeadings, paragraphsOf, requiredBlockKinds } from './blocks.ts';

export interface DraftParagraph {
  /** The paragraph's number in the decision; null for the header's and the signature's lines. */
  n: number | null;
  text: string;
}

export interface DraftPart {
  kind: BlockKind;
  /** null for a placeholder. */
  key: string | null;
  version: number | null;
  /** The kind's heading, on the first part of its kind. */
  heading: string | null;
  /** A discussion block's title. */
  subheading: string | null;
  paragraphs: DraftParagraph[];
  citations: Citation[];
  placeholder: boolean;
}

export interface AssembledDraft {
  parts: DraftPart[];
  missing: BlockKind[];
  paragraphs: number;
}

export interface AssembleBlock {
  key: string;
  kind: BlockKind;
  version: number;
  title: string | null;
  text: string;
  citations: readonly Citation[];
}

const UNNUMBERED: readonly BlockKind[] = ['header', 'signature'];

/** The text standing in for a required block not written yet. */
export const placeholderText = (kind: BlockKind): string =>
  `[טרם נכתב: ${blockHeadings[kind] ?? (kind === 'header' ? 'כותרת ההחלטה' : 'חתימה')}]`;

/** Blocks (already in decision order) assembled into parts with continuous numbering. */
export function assemble(blocks: readonly AssembleBlock[]): AssembledDraft {
  const parts: DraftPart[] = [];
  const missing: BlockKind[] = [];
  let n = 0;
  for (const kind of blockKinds) {
    const ofKind = blocks.filter((b) => b.kind === kind && b.text.trim() !== '');
    const numbered = !UNNUMBERED.includes(kind);
    if (ofKind.length === 0) {
      if (!requiredBlockKinds.includes(kind)) continue;
      missing.push(kind);
      parts.push({
        kind,
        key: null,
        version: null,
        heading: blockHeadings[kind],
        subheading: null,
        paragraphs: [{ n: null, text: placeholderText(kind) }],
        citations: [],
        placeholder: true,
      });
      continue;
    }
    ofKind.forEach((b, i) => {
      parts.push({
        kind,
        key: b.key,
        version: b.version,
        heading: i === 0 ? blockHeadings[kind] : null,
        subheading: kind === 'discussion' ? b.title : null,
        paragraphs: paragraphsOf(b.text).map((text) => ({ n: numbered ? ++n : null, text })),
        citations: [...b.citations],
        placeholder: false,
      });
    });
  }
  return { parts, missing, paragraphs: n };
}

/** The draft as markdown (headings, numbered paragraphs, placeholders in bold) or plain text. */
export function renderDraft(draft: AssembledDraft, format: 'markdown' | 'text'): string {
  const md = format === 'markdown';
  const out: string[] = [];
  for (const p of draft.parts) {
    if (p.heading !== null) out.push(md ? `## ${p.heading}` : p.heading);
    if (p.subheading !== null) out.push(md ? `### ${p.subheading}` : p.subheading);
    for (const para of p.paragraphs) {
      const text = p.placeholder && md ? `**${para.text}**` : para.text;
      out.push(para.n === null ? (md && p.kind === 'header' ? `**${text}**` : text) : `${para.n}. ${text}`);
    }
  }
  return `${out.join('\n\n')}\n`;
}

/**
 * The authorities the draft cites, each once, in order of first citation: the export's appendix. Those each
 * block declares and those written in its text (read by the one citation reader), under the proceeding's key;
 * the same number with other parties' names is listed again. The header and the case's own number are not
 * authorities.
 */
export function citedAuthorities(draft: AssembledDraft, ownNumber: string | null = null): string[] {
  const own = ownNumber === null ? null : citationKey(ownNumber);
  const listed: { key: string; parties: string | null; text: string }[] = [];
  const clean = (t: string) =>
    t
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[.,;:]+$/, '');
  const add = (key: string, parties: string | null, text: string) => {
    if (key === own) return;
    const same = listed.find(
      (l) =>
        l.key === key &&
        (l.parties === null || parties === null || partiesAgreement(parties, l.parties) >= PARTIES_AGREE_AT),
    );
    if (same === undefined) listed.push({ key, parties, text: clean(text) });
    else if (same.parties === null && parties !== null) {
      // A later mention with the parties names the authority better than a bare number.
      same.parties = parties;
      same.text = clean(text);
    }
  };
  for (const p of draft.parts) {
    if (p.kind === 'header' || p.placeholder) continue;
    for (const c of p.citations) {
      const found = findCitations(c.text)[0];
      const key = citationKey(c.number ?? found?.number ?? c.text);
      add(
        key,
        c.parties ?? found?.parties ?? null,
        c.number !== undefined && c.parties !== undefined ? `${c.number} ${c.parties}` : c.text,
      );
    }
    for (const para of p.paragraphs)
      for (const f of findCitations(para.text))
        add(f.key, f.parties, f.parties === null ? f.number : `${f.number} ${f.parties}`);
  }
  return listed.map((l) => l.text);
}
