// `npm run render-draft -- <case id or case number> [--out DIR]`: the case's current draft written as the Word
// export is (docs/drafting.md), then rendered with LibreOffice headless to PDF and with poppler to PNG pages,
// so anyone can look at it. Reads DATABASE_URL, else the embedded PGlite in DATA_DIR (as `npm start` does;
// not while the server holds it). Writes into test-output/render/<case>/ unless --out says otherwise.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { and, eq, isNull, or } from 'drizzle-orm';
import { openNodeStores } from '../../src/db/node_stores.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { assemble } from '../../src/drafting/assemble.ts';
import { renderDocx } from '../../src/drafting/docx_writer.ts';
import { exportBlocksHash, exportSubject } from '../../src/drafting/export_job.ts';
import { currentBlocks } from '../../src/drafting/store.ts';
import { hasLibreOffice, hasPoppler, INSTALL, libreOfficeConvert, pdfPages } from './office.ts';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? args[outAt + 1] : undefined;
const which = args.find((a, i) => !a.startsWith('--') && (outAt < 0 || i !== outAt + 1));
if (which === undefined) {
  console.error('usage: npm run render-draft -- <case id or case number> [--out DIR]');
  process.exit(2);
}
if (!hasLibreOffice() || !hasPoppler()) {
  console.error(`render-draft needs LibreOffice and poppler: ${INSTALL}`);
  process.exit(1);
}
const stores = await openNodeStores(process.env);
try {
  const db = stores.handle.db;
  const uuid = /^[0-9a-f-]{36}$/i.test(which);
  const [row] = await db
    .select()
    .from(cases)
    .where(
      and(
        isNull(cases.deletedAt),
        uuid ? or(eq(cases.id, which), eq(cases.caseNumber, which)) : eq(cases.caseNumber, which),
      ),
    );
  if (row === undefined) throw new Error(`no live case ${which}`);
  const blocks = await currentBlocks(db, row.id);
  if (blocks.length === 0) throw new Error(`case ${row.caseNumber} has no blocks written`);
  const draft = assemble(blocks);
  const subject = await exportSubject(db, row);
  const blocksHash = exportBlocksHash({ ...subject, blocks });
  const { bytes } = await renderDocx(draft, { ...subject, blocksHash });
  const dir = resolve(out ?? join('test-output', 'render', row.id));
  await mkdir(dir, { recursive: true });
  const docx = join(dir, 'decision.docx');
  await writeFile(docx, bytes);
  const pdf = await libreOfficeConvert(docx, 'pdf', dir);
  const pages = await pdfPages(pdf, join(dir, 'page'));
  console.log(`${row.caseNumber}: ${draft.parts.length} block(s), ${draft.paragraphs} numbered paragraph(s)`);
  console.log(`  ${docx}\n  ${pdf}\n${pages.map((p) => `  ${p}`).join('\n')}`);
} finally {
  await stores.handle.close();
}
