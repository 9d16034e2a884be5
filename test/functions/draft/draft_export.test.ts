// draft_export: the Word file of the draft, read back with mammoth (text and order equal the draft) and checked
// in its XML against the Hebrew specification (docs/drafting.md): w:bidi on every paragraph, w:rtl on every
// run, bold and size on the complex-script slot, the Hebrew font in the cs slot, alignment, numbered
// paragraphs, the header as the heading, the appendix of authorities; each block's content controls tagged
// and locked, its bookmark spanning it, its text hash stored. Idempotent; refusals; 20 at once; no grant.
import { eq } from 'drizzle-orm';
import mammoth from 'mammoth';
import { expect, it } from 'vitest';
import { cases } from '../../../src/db/schema/cases.ts';
import { draftExports } from '../../../src/db/schema/drafting.ts';
import { placeholderText } from '../../../src/drafting/assemble.ts';
import { textHash } from '../../../src/drafting/blocks.ts';
import { readDocx } from '../../../src/drafting/docx_reader.ts';
import { HEADER_STYLE } from '../../../src/drafting/docx_writer.ts';
import { readZipTexts } from '../../../src/drafting/zip.ts';
import {
  ALL_STACKS,
  DB_STACKS,
  deleteCase,
  deniedTo,
  forEachStack,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';
import { draftingCase, type Exported, fullBlocks } from '../block/_drafting.ts';

/** A new case with one block written. */
async function caseWithBlock(s: TestServer, kind: string, text: string): Promise<string> {
  const caseId = await seedCase(s.db.db);
  expectOk(await s.call('writer', 'block_write', { case_id: caseId, blocks: [{ kind, text }] }));
  return caseId;
}

const bytesOf = (b64: string | null) => new Uint8Array(Buffer.from(b64 ?? '', 'base64'));
const all = (xml: string, re: RegExp) => [...xml.matchAll(re)].map((m) => m[0]);

forEachStack('draft_export', DB_STACKS, (server) => {
  it('writes the draft to the Hebrew specification, each block anchored, read back equal to the draft', async () => {
    const s = server();
    const c = await draftingCase(s);
    const blocks = fullBlocks(c);
    expectOk(await s.call('writer', 'block_write', { case_id: c.caseId, blocks }));
    const out = expectOk<Exported>(await s.call('writer', 'draft_export', { case_id: c.caseId }));
    const bytes = bytesOf(out.content_base64);
    expect(bytes.byteLength).toBe(out.byte_size);
    expect(out.missing).toEqual([]);
    const [stored] = await s.db.db.select().from(draftExports).where(eq(draftExports.id, out.export_id));
    expect(stored?.sha256).toBe(out.sha256);
    expect(Buffer.from(stored?.content ?? []).equals(Buffer.from(bytes))).toBe(true);

    // mammoth reads the same text in the same order as draft_get (numbers are the list's, not the text's).
    const draft = expectOk<{ text: string }>(
      await s.call('writer', 'draft_get', { case_id: c.caseId, format: 'text' }),
    );
    const expected = draft.text
      .split('\n\n')
      .map((l) => l.trim().replace(/^\d+\. /, ''))
      .filter((l) => l !== '');
    const raw = (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value;
    const read = raw
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    // The title «החלטה» under the header's three lines; the list of authorities before the signature block,
    // and under it the signature lines: without a panel, lines to sign on under the role titles.
    expect(read).toEqual([
      ...expected.slice(0, 3),
      'החלטה',
      ...expected.slice(3, -1),
      'רשימת האסמכתאות',
      'עע"מ 1234/05 פלוני נ׳ אלמוני, פס׳ 12',
      expected.at(-1),
      ...['יו"ר הוועדה', 'חבר הוועדה', 'חבר הוועדה'].flatMap((title) => ['____________________', title]),
    ]);

    const parts = await readZipTexts(bytes, [
      'word/document.xml',
      'word/numbering.xml',
      'docProps/custom.xml',
      'word/styles.xml',
    ]);
    const xml = parts.get('word/document.xml') ?? '';
    const body = xml.slice(xml.indexOf('<w:body>'));
    const paragraphs = all(body, /<w:p>[\s\S]*?<\/w:p>/g);
    const runs = all(body, /<w:r>[\s\S]*?<\/w:r>/g);
    expect(paragraphs.length).toBeGreaterThan(15);
    // Every paragraph right-to-left, every run rtl with the Hebrew font in the cs slot and the size on szCs.
    expect(paragraphs.every((p) => p.includes('<w:bidi/>'))).toBe(true);
    expect(
      runs.every(
        (r) => r.includes('<w:rtl/>') && /<w:rFonts [^>]*w:cs="David"/.test(r) && r.includes('<w:szCs '),
      ),
    ).toBe(true);
    // Bold also on the complex-script slot.
    const bold = runs.filter((r) => r.includes('<w:b/>'));
    expect(bold.length).toBeGreaterThan(0);
    expect(bold.every((r) => r.includes('<w:bCs/>'))).toBe(true);
    // Body justified, headings centred; the header block is the document's title.
    expect(
      paragraphs.filter((p) => p.includes('w:numPr')).every((p) => p.includes('<w:jc w:val="both"/>')),
    ).toBe(true);
    expect(
      paragraphs.filter((p) => p.includes('Heading1')).every((p) => p.includes('<w:jc w:val="center"/>')),
    ).toBe(true);
    // The header's lines in the committee's header style; «החלטה» alone in the Title style.
    expect(paragraphs[0]).toContain(`<w:pStyle w:val="${HEADER_STYLE}"/>`);
    expect(paragraphs[0]).toContain('ועדת הערר לתכנון ולבנייה');
    expect(paragraphs.filter((p) => p.includes('<w:pStyle w:val="Title"/>'))).toEqual([
      expect.stringContaining('>החלטה<'),
    ]);
    // Numbered paragraphs: the body's, one list, decimal; the header's and the signature's are not.
    const numbered = paragraphs.filter((p) => p.includes('<w:numPr>'));
    expect(numbered).toHaveLength(
      expected.filter((_, i) =>
        /^\d+\. /.test(draft.text.split('\n\n').filter((l) => l.trim() !== '')[i] ?? ''),
      ).length,
    );
    expect(new Set(numbered.map((p) => /<w:numId w:val="(\d+)"\/>/.exec(p)?.[1])).size).toBe(1);
    expect(parts.get('word/numbering.xml')).toContain('<w:numFmt w:val="decimal"/>');
    expect(paragraphs.find((p) => p.includes('ניתנה היום'))).not.toContain('w:numPr');
    // Each block: its paragraphs' runs in content controls tagged kind|key|version and locked against deletion,
    // a bookmark from its first paragraph to its last, its text hash in the file's properties.
    const doc = await readDocx(bytes);
    for (const [i, b] of out.blocks.entries()) {
      const mine = doc.paragraphs.filter((p) => p.anchor?.bookmark === i);
      expect(mine.every((p) => p.anchor?.tag?.key === b.key && p.anchor.tag.version === b.version)).toBe(
        true,
      );
      const written = blocks.find((x) => (x.key ?? x.kind) === b.key);
      expect(mine.map((p) => p.accepted).join('\n')).toBe(written?.text);
      expect(b.text_hash).toBe(textHash(written?.text ?? ''));
      expect(doc.properties.get(`chambers_block_${i}`)).toBe(
        `${b.kind}|${b.key}|${b.version}|${b.text_hash}|${b.bookmark}`,
      );
    }
    expect(out.blocks.map((b) => b.key)).toEqual([
      'header',
      'background',
      'appellant_claims',
      'respondent_claims',
      'discussion:plan',
      'discussion:reasonableness',
      'outcome',
      'costs',
      'signature',
    ]);
    const sdts = all(body, /<w:sdt>[\s\S]*?<\/w:sdt>/g);
    expect(sdts.length).toBe(doc.paragraphs.filter((p) => p.anchor !== null).length);
    expect(
      sdts.every(
        (x) => x.includes('<w:lock w:val="sdtLocked"/>') && /<w:tag w:val="[a-z_]+\|[^|"]+\|\d+"\/>/.test(x),
      ),
    ).toBe(true);
    expect(doc.properties.get('chambers_export')).toMatch(new RegExp(`^${c.caseId}\\|[0-9a-f]{64}$`));
    // The list of authorities comes after the outcome and before the signature block.
    expect(body.indexOf('רשימת האסמכתאות')).toBeGreaterThan(body.indexOf('<w:tag w:val="costs|'));
    expect(body.indexOf('רשימת האסמכתאות')).toBeLessThan(body.indexOf('ניתנה היום'));
  });

  it('lists in the appendix every authority cited in the text, declared or not, and not the case’s own number', async () => {
    const s = server();
    const caseId = await seedCase(s.db.db);
    const own = `ערר ${8000 + Math.floor(Math.random() * 999)}/25`;
    await s.db.db.update(cases).set({ caseNumber: own }).where(eq(cases.id, caseId));
    expectOk(
      await s.call('writer', 'block_write', {
        case_id: caseId,
        blocks: [
          { kind: 'header', text: `ועדת הערר\n${own}\nלוי נ׳ הוועדה המקומית` },
          {
            kind: 'discussion',
            title: 'דיון',
            text: `כפי שנקבע בעע״מ 5678/20 ראובן נ׳ שמעון, פס׳ 4, ובהמשך לאמור ב${own}, יש לדחות. ראו גם עע"מ 5678/20 ראובן נ' שמעון ובר"מ 4444/19 דוד נ׳ גוליית.`,
            citations: [{ text: 'עע"מ 1111/11 לוי נ׳ כהן' }],
          },
        ],
      }),
    );
    const out = expectOk<Exported>(await s.call('writer', 'draft_export', { case_id: caseId }));
    const raw = (await mammoth.extractRawText({ buffer: Buffer.from(bytesOf(out.content_base64)) })).value;
    const lines = raw
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    expect(lines.indexOf('החלטה')).toBe(3);
    // The list stands before the signature block (here its placeholder) and the signature lines.
    const listed = lines.indexOf('רשימת האסמכתאות') + 1;
    expect(lines.slice(listed, listed + 4)).toEqual([
      'עע"מ 1111/11 לוי נ׳ כהן',
      'עע״מ 5678/20 ראובן נ׳ שמעון',
      'בר"מ 4444/19 דוד נ׳ גוליית',
      placeholderText('signature'),
    ]);
  });

  it('the same block versions give the same export; a new version gives a new one; an interim draft shows placeholders', async () => {
    const s = server();
    const caseId = await caseWithBlock(s, 'background', 'רקע.');
    const first = expectOk<Exported>(await s.call('writer', 'draft_export', { case_id: caseId }));
    expect(first.missing).toContain('header');
    const again = expectOk<Exported>(await s.call('ceo', 'draft_export', { case_id: caseId }));
    expect(again.export_id).toBe(first.export_id);
    expect(again.sha256).toBe(first.sha256);
    expectOk(
      await s.call('writer', 'block_write', {
        case_id: caseId,
        blocks: [{ kind: 'background', text: 'רקע מתוקן.' }],
      }),
    );
    const second = expectOk<Exported>(await s.call('writer', 'draft_export', { case_id: caseId }));
    expect(second.export_id).not.toBe(first.export_id);
    expect(second.blocks[0]).toMatchObject({ key: 'background', version: 2 });
    const raw = (await mammoth.extractRawText({ buffer: Buffer.from(bytesOf(second.content_base64)) })).value;
    expect(raw).toContain('[טרם נכתב: כותרת ההחלטה]');
    expect(
      await s.db.db.select({ id: draftExports.id }).from(draftExports).where(eq(draftExports.caseId, caseId)),
    ).toHaveLength(2);
  });

  it('a case without blocks is invalid_state; a deleted case is not_found', async () => {
    const s = server();
    const caseId = await seedCase(s.db.db);
    expect(errorCode(await s.call('writer', 'draft_export', { case_id: caseId }))).toBe('invalid_state');
    expectOk(
      await s.call('writer', 'block_write', {
        case_id: caseId,
        blocks: [{ kind: 'outcome', text: 'הערר נדחה.' }],
      }),
    );
    await deleteCase(s.db.db, caseId);
    expect(errorCode(await s.call('writer', 'draft_export', { case_id: caseId }))).toBe('not_found');
  });
});

forEachStack('draft_export at once', ALL_STACKS, (server) => {
  it('20 identical calls at once store one export', async () => {
    const s = server();
    const caseId = await caseWithBlock(s, 'outcome', 'הערר נדחה.');
    const answers = await twentyAtOnce(s, 'draft_export', { case_id: caseId }, ['writer', 'ceo']);
    const ids = new Set(answers.map((a) => expectOk<Exported>(a).export_id));
    expect(ids.size).toBe(1);
    expect(
      await s.db.db.select({ id: draftExports.id }).from(draftExports).where(eq(draftExports.caseId, caseId)),
    ).toHaveLength(1);
    // The whole suite in parallel slows the render: a bound well above the few seconds it takes alone.
  }, 120_000);
});

it('without a runtime that writes the file, the call says in_progress, naming the queued job', async () => {
  const s = await startTestServer({ jobHandlers: {} });
  try {
    const caseId = await caseWithBlock(s, 'outcome', 'הערר נדחה.');
    const res = await s.call('writer', 'draft_export', { case_id: caseId, wait_ms: 0 });
    expect(errorCode(res)).toBe('in_progress');
    expect(res.ok ? null : res.error.details).toMatchObject({ job_id: expect.any(String), state: 'pending' });
  } finally {
    await s.close();
  }
});

deniedTo('draft_export', 'qa', (c) => ({ case_id: c.caseId }));

it("the file the call's drain writes is stamped with the server's clock, as the tool's own rows are", async () => {
  // A clock years from the real one: a job stamped by the system clock would show at once.
  const at = new Date('2031-03-04T05:06:07.000Z');
  const s = await startTestServer({ now: () => at });
  try {
    const caseId = await caseWithBlock(s, 'outcome', 'הערר נדחה.');
    const out = expectOk<Exported>(await s.call('writer', 'draft_export', { case_id: caseId }));
    const [stored] = await s.db.db
      .select({ createdAt: draftExports.createdAt })
      .from(draftExports)
      .where(eq(draftExports.id, out.export_id));
    expect(stored?.createdAt.toISOString()).toBe(at.toISOString());
  } finally {
    await s.close();
  }
});
