// A decision's blocks (docs/drafting.md): the kinds in reading order, which are required, their Hebrew
// headings, and the canonical content hash that makes a repeated write a replay rather than a new version.
import * as z from 'zod';
import { sha256Hex, stableStringify } from '../contract/hash.ts';
import { type BlockKind, blockKinds, type Citation } from '../db/schema/drafting.ts';

/** The blocks every decision has; a draft shows a placeholder for each one not yet written. */
export const requiredBlockKinds: readonly BlockKind[] = [
  'header',
  'background',
  'appellant_claims',
  'respondent_claims',
  'discussion',
  'outcome',
  'signature',
];

/** The heading each kind carries in the decision (the header and signature have none of their own). */
export const blockHeadings: Record<BlockKind, string | null> = {
  header: null,
  background: 'רקע',
  appellant_claims: 'טענות העוררים',
  respondent_claims: 'טענות המשיבה',
  discussion: 'דיון והכרעה',
  outcome: 'סוף דבר',
  costs: 'הוצאות',
  signature: null,
};

export const kindOrder = (kind: BlockKind): number => blockKinds.indexOf(kind);

/** A block's key: its kind for single blocks; several discussion blocks need keys of their own. */
export const blockKeyInput = z
  .string()
  .regex(/^[a-z][a-z0-9_:-]{0,63}$/, 'lowercase letters, digits, _ : -; starting with a letter')
  .describe('Its kind, or "discussion:<topic>"');

export const MAX_BLOCK_TEXT = 60_000;
export const MAX_BLOCK_REFS = 200;
export const MAX_CITATIONS = 100;

export const citationInput = z.strictObject({
  text: z.string().trim().min(1).max(500).describe('As written'),
  number: z.string().trim().min(1).max(100).optional().describe('The number cited'),
  parties: z.string().trim().min(1).max(300).optional(),
  pinpoint: z.string().trim().min(1).max(100).optional().describe('Paragraph or page'),
  quote: z.string().trim().min(1).max(4000).optional().describe('Words quoted'),
}) satisfies z.ZodType<Citation>;

/** A citation as tools return it (the input's fields, without their descriptions). */
export const citationOutput = z.object({
  text: z.string(),
  number: z.string().optional(),
  parties: z.string().optional(),
  pinpoint: z.string().optional(),
  quote: z.string().optional(),
});

export interface BlockContent {
  kind: BlockKind;
  title: string | null;
  text: string;
  claimIds: readonly string[];
  argumentIds: readonly string[];
  citations: readonly Citation[];
}

/** SHA-256 of a block's canonical content: the same content again is the same version. */
export const blockContentHash = (c: BlockContent): string =>
  sha256Hex(
    stableStringify({
      kind: c.kind,
      title: c.title,
      text: c.text,
      claim_ids: [...c.claimIds].sort(),
      argument_ids: [...c.argumentIds].sort(),
      citations: c.citations,
    }),
  );

/** SHA-256 of a block's text alone, as exported into a file and compared when the final version returns. */
export const textHash = (text: string): string =>
  sha256Hex(text.normalize('NFC').replace(/\s+/g, ' ').trim());

/** Paragraphs of a block's text: split on blank lines or single newlines, empty ones dropped. */
export const paragraphsOf = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
