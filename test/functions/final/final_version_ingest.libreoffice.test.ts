// The Word export as a person opens it: LibreOffice headless opens it and saves it again as DOCX, and that file
// taken in as the final version finds every block, unchanged (edit ratio 0); LibreOffice also renders the
// export to PDF and poppler to PNG pages. LibreOffice is required in CI (.ci/run installs it); elsewhere the
// suite says plainly that it did not run.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  hasLibreOffice,
  hasPoppler,
  INSTALL,
  libreOfficeConvert,
  pdfPages,
} from '../../../scripts/dev/office.ts';
import { readDocx } from '../../../src/drafting/docx_reader.ts';
import { DB_STACKS, forEachStack } from '../../harness/analysis.ts';
import { expectOk } from '../../harness/server.ts';
import { draftingCase, type Exported, fullBlocks } from '../block/_drafting.ts';

interface Ingested {
  export_id: string | null;
  blocks: { key: string; found: boolean; edit_ratio: number | null }[];
}

function describeWithLibreOffice(title: string, fn: () => void): void {
  if (hasLibreOffice() && hasPoppler()) {
    fn();
    return;
  }
  const message = `[libreoffice] soffice or pdftoppm is missing (${INSTALL}): the "${title}" suite did NOT run`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(message);
  describe.skip(title, () => it('needs LibreOffice', () => {}));
}

describeWithLibreOffice('the export through LibreOffice', () => {
  forEachStack(
    'the export through LibreOffice',
    [DB_STACKS[0] ?? { db: 'pglite', kv: 'postgres' }],
    (server) => {
      it('saved again by LibreOffice and taken in as the final version, every block is found unchanged', async () => {
        const s = server();
        const c = await draftingCase(s);
        expectOk(await s.call('writer', 'block_write', { case_id: c.caseId, blocks: fullBlocks(c) }));
        const out = expectOk<Exported>(await s.call('writer', 'draft_export', { case_id: c.caseId }));
        const dir = await mkdtemp(join(tmpdir(), 'chambers-roundtrip-'));
        try {
          const src = join(dir, 'export.docx');
          await writeFile(src, Buffer.from(out.content_base64 ?? '', 'base64'));
          const saved = await libreOfficeConvert(src, 'docx', join(dir, 'saved'));
          const bytes = await readFile(saved);
          // LibreOffice keeps the bookmarks and the file's properties (it drops the content controls' tags).
          const doc = await readDocx(new Uint8Array(bytes));
          expect(doc.properties.get('chambers_export')).toMatch(new RegExp(`^${c.caseId}\\|`));
          const res = expectOk<Ingested>(
            await s.call('ceo', 'final_version_ingest', {
              case_id: c.caseId,
              content_base64: bytes.toString('base64'),
              owner_ack: true,
              reason: 'נשמר ב-LibreOffice',
            }),
          );
          expect(res.export_id).toBe(out.export_id);
          expect(res.blocks.map((b) => b.key)).toEqual(out.blocks.map((b) => b.key));
          expect(res.blocks.filter((b) => !b.found)).toEqual([]);
          expect(res.blocks.map((b) => b.edit_ratio)).toEqual(out.blocks.map(() => 0));
          // Rendered: a PDF with pages, each a PNG.
          const pdf = await libreOfficeConvert(src, 'pdf', dir);
          const pages = await pdfPages(pdf, join(dir, 'page'), 40);
          expect(pages.length).toBeGreaterThan(0);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }, 120_000);
    },
  );
});
