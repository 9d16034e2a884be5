import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import type { ToolContext } from '../../src/contract/define.ts';
import { defineTool } from '../../src/contract/define.ts';
import { writtenOrExisting } from '../../src/contract/durable.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { sha256Hex } from '../../src/contract/hash.ts';
import { and, desc, eq } from '../../src/db/orm.ts';
import { type CaseRow, cases } from '../../src/db/schema/cases.ts';
import {
  type DraftExportRow,
  draftBlocks,
  draftExports,
  finalVersionBlocks,
  finalVersions,
} from '../../src/db/schema/drafting.ts';
import { checkContent, contentBytes, contentFields, storeUpload } from '../../src/documents/uploads.ts';
import { EXPORT_PROPERTY } from '../../src/drafting/anchors.ts';
import { paragraphsOf } from '../../src/drafting/blocks.ts';
import { type ReadDocx, readDocx } from '../../src/drafting/docx_reader.ts';
import { acceptedText, editRatio, mapBlocks } from '../../src/drafting/final.ts';
import { isZip } from '../../src/drafting/zip.ts';

const MAX_BLOCKS = 500;
const MAX_ITEMS = 200;

const changeOutput = z.object({
  block: z.string(),
  type: z.enum(['insertion', 'deletion']),
  author: z.string().nullable(),
  date: z.string().nullable(),
  text: z.string(),
});
const commentOutput = z.object({
  block: z.string(),
  author: z.string().nullable(),
  date: z.string().nullable(),
  text: z.string(),
  anchored_text: z.string(),
});

/** The export a DOCX came from: named in its properties, else the case's latest when the file has anchors. */
async function exportOf(ctx: ToolContext, c: CaseRow, doc: ReadDocx): Promise<DraftExportRow | undefined> {
  const named = doc.properties.get(EXPORT_PROPERTY);
  if (named !== undefined) {
    const [caseId, blocksHash] = named.split('|');
    if (caseId !== c.id) throw invalidArg('content_base64', 'this file is the export of another case');
    const [row] = await ctx.db
      .select()
      .from(draftExports)
      .where(and(eq(draftExports.caseId, c.id), eq(draftExports.blocksHash, blocksHash ?? '')));
    if (row !== undefined) return row;
  }
  if (!doc.paragraphs.some((p) => p.anchor !== null)) return undefined;
  const [latest] = await ctx.db
    .select()
    .from(draftExports)
    .where(eq(draftExports.caseId, c.id))
    .orderBy(desc(draftExports.createdAt), desc(draftExports.id))
    .limit(1);
  return latest;
}

async function exportedTexts(
  ctx: ToolContext,
  caseId: string,
  row: DraftExportRow,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const b of row.blocks) {
    const [r] = await ctx.db
      .select({ text: draftBlocks.text })
      .from(draftBlocks)
      .where(
        and(eq(draftBlocks.caseId, caseId), eq(draftBlocks.key, b.key), eq(draftBlocks.version, b.version)),
      );
    out.set(b.key, paragraphsOf(r?.text ?? '').join('\n'));
  }
  return out;
}

export const final_version_ingest = defineTool({
  name: 'final_version_ingest',
  title: 'Final version',
  description:
    'Owner-gated. The chair’s signed decision (edited Word export, or text) becomes the final text; the ' +
    'case is decided; per exported block: final text, edit ratio, tracked changes, comments.',
  input: {
    case_id: caseIdInput,
    text: contentFields.text.describe('The final decision as text'),
    content_base64: contentFields.content_base64.describe('Or the final DOCX in base64 (≤ 10 MiB)'),
  },
  output: z.object({
    final_version_id: z.uuid(),
    created: z.boolean(),
    sha256: z.string(),
    format: z.enum(['docx', 'text']),
    export_id: z.uuid().nullable(),
    document_id: z.uuid().nullable(),
    blocks: z
      .array(
        z.object({
          key: z.string(),
          kind: z.string(),
          exported_version: z.int(),
          found: z.boolean(),
          edit_ratio: z.number().nullable().describe('0 = as exported, 1 = all rewritten'),
          changes: z.int(),
          comments: z.int(),
        }),
      )
      .max(MAX_BLOCKS),
    changes: z.array(changeOutput).max(MAX_ITEMS),
    comments: z.array(commentOutput).max(MAX_ITEMS),
  }),
  mutates: 'write',
  ownerGate: true,
  takesUpload: true,
  precheck: checkContent,
  idempotencyKey: {
    describe: 'case_id + SHA-256 of the file or text',
    of: (i) =>
      `${i.case_id}:${sha256Hex(i.text !== undefined ? `text:${i.text}` : `base64:${i.content_base64 ?? ''}`)}`,
  },
  async run({ ctx, input }) {
    const c = await loadLiveCase(ctx.db, input.case_id);
    const bytes = contentBytes(input);
    const sha = sha256Hex(bytes);
    const docx = input.content_base64 !== undefined && isZip(bytes);
    if (
      input.content_base64 !== undefined &&
      !docx &&
      new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-'
    )
      throw invalidArg(
        'content_base64',
        'a Word file (DOCX) or text; this is a PDF',
        'Send the Word file the chair signed, or its text.',
      );
    let text: string;
    let doc: ReadDocx | null = null;
    if (docx) {
      doc = await readDocx(bytes).catch(() => {
        throw invalidArg('content_base64', 'not a readable Word document');
      });
      text = acceptedText(doc);
    } else text = new TextDecoder().decode(bytes).trim();
    if (text === '') throw invalidArg(docx ? 'content_base64' : 'text', 'the final version has no text');
    const exp = doc === null ? undefined : await exportOf(ctx, c, doc);
    const mapped = doc !== null && exp !== undefined ? mapBlocks(doc, exp.blocks) : [];
    const exported = exp === undefined ? new Map<string, string>() : await exportedTexts(ctx, c.id, exp);
    const now = ctx.now();
    const { row, created } = await ctx.db.transaction(async (tx) => {
      await tx.select({ id: cases.id }).from(cases).where(eq(cases.id, c.id)).for('update');
      const { row: made, written } = await writtenOrExisting(
        tx
          .insert(finalVersions)
          .values({
            id: crypto.randomUUID(),
            caseId: c.id,
            sha256: sha,
            format: docx ? 'docx' : 'text',
            exportId: exp?.id ?? null,
            text,
            createdBy: ctx.agent,
            createdAt: now,
          })
          .onConflictDoNothing()
          .returning(),
        () =>
          tx
            .select()
            .from(finalVersions)
            .where(and(eq(finalVersions.caseId, c.id), eq(finalVersions.sha256, sha))),
        'the final version',
      );
      if (!written) return { row: made, created: false };
      if (mapped.length > 0)
        await tx.insert(finalVersionBlocks).values(
          mapped.map((b) => {
            const before = exported.get(b.key) ?? '';
            return {
              finalId: made.id,
              caseId: c.id,
              key: b.key,
              kind: b.kind as (typeof draftBlocks.$inferSelect)['kind'],
              exportedVersion: b.exportedVersion,
              exportedText: before,
              finalText: b.finalText,
              editRatio: b.finalText === null ? null : editRatio(before, b.finalText),
              changes: b.changes,
              comments: b.comments,
            };
          }),
        );
      await tx
        .update(cases)
        .set({ finalText: text, finalTextAt: now, status: 'decided', updatedAt: now })
        .where(eq(cases.id, c.id));
      return { row: made, created: true };
    });
    // The committee's own corpus grows by itself: the decision joins the internal decisions (idempotent on its text).
    let documentId = row.documentId;
    if (documentId === null) {
      const stored = await storeUpload(ctx, {
        corpus: 'internal',
        caseId: null,
        input: { text: row.text, title: `${c.caseNumber} — ${c.title}` },
        metadata: {
          number: c.caseNumber,
          decisionDate: now.toISOString().slice(0, 10),
          committee: c.committee,
          parties:
            c.appellant !== null && c.respondent !== null ? `${c.appellant} נ׳ ${c.respondent}` : c.title,
        },
      });
      documentId = stored.document.id;
      await ctx.db.update(finalVersions).set({ documentId }).where(eq(finalVersions.id, row.id));
    }
    const blocks = await ctx.db
      .select()
      .from(finalVersionBlocks)
      .where(eq(finalVersionBlocks.finalId, row.id));
    const order = new Map((exp?.blocks ?? []).map((b, i) => [b.key, i]));
    blocks.sort((a, b) => (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0));
    const found = blocks.filter((b) => b.finalText !== null).length;
    return ok(
      {
        final_version_id: row.id,
        created,
        sha256: row.sha256,
        format: row.format,
        export_id: row.exportId,
        document_id: documentId,
        blocks: blocks.slice(0, MAX_BLOCKS).map((b) => ({
          key: b.key,
          kind: b.kind,
          exported_version: b.exportedVersion,
          found: b.finalText !== null,
          edit_ratio: b.editRatio,
          changes: b.changes.length,
          comments: b.comments.length,
        })),
        changes: blocks.flatMap((b) => b.changes.map((x) => ({ block: b.key, ...x }))).slice(0, MAX_ITEMS),
        comments: blocks.flatMap((b) => b.comments.map((x) => ({ block: b.key, ...x }))).slice(0, MAX_ITEMS),
      },
      `${created ? 'Took in' : 'Already took in'} the final version of ${c.caseNumber}: the case is decided` +
        (blocks.length > 0 ? `; ${found} of ${blocks.length} block(s) found` : ''),
    );
  },
});
