// The draft assembled from the current blocks (docs/drafting.md "The draft"): blocks in the decision's order,
// each kind's heading once, a discussion block's title as a subheading, the body's paragraphs numbered
// continuously (the header and the signature are not numbered), and a visible placeholder for each
// required block not yet written. draft_get renders it as markdown or text; draft_export as DOCX.

import { type BlockKind, blockKinds, type Citation } from '../db/schema/drafting.ts';
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

/** The authorities the draft cites, each once, in order of first citation: the export's appendix. */
export function citedAuthorities(draft: AssembledDraft): string[] {
  const seen = new Map<string, string>();
  for (const p of draft.parts)
    for (const c of p.citations) {
      const key = (c.number ?? c.text).replace(/\s+/g, ' ').trim();
      if (!seen.has(key))
        seen.set(
          key,
          c.number !== undefined && c.parties !== undefined ? `${c.number} ${c.parties}` : c.text,
        );
    }
  return [...seen.values()];
}
