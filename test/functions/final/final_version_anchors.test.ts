// The final version's tracked changes count for the block of the paragraph they stand in, wherever in it they
// stand: inside the block's content control, typed before it at the paragraph's start, or typed after the
// control's end in the same paragraph (Word puts a run typed at the end of a control's text outside it).
import { expect, it } from 'vitest';
import { readDocx } from '../../../src/drafting/docx_reader.ts';
import { editRatio, mapBlocks } from '../../../src/drafting/final.ts';
import { DB_STACKS, forEachStack } from '../../harness/analysis.ts';
import { expectOk } from '../../harness/server.ts';
import { docxEntries, writeZip } from '../../harness/zip.ts';
import { draftingCase, type Exported, fullBlocks } from '../block/_drafting.ts';
import { CHAIR, WHEN } from './_chair.ts';

const ins = (id: number, text: string) =>
  `<w:ins w:id="${id}" w:author="${CHAIR}" w:date="${WHEN}"><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:ins>`;

forEachStack('final version anchors', DB_STACKS.slice(0, 1), (server) => {
  it('counts a change typed after the content control’s end, or before it, in its paragraph’s block', async () => {
    const s = server();
    const c = await draftingCase(s);
    expectOk(await s.call('writer', 'block_write', { case_id: c.caseId, blocks: fullBlocks(c) }));
    const out = expectOk<Exported>(await s.call('writer', 'draft_export', { case_id: c.caseId }));
    const entries = await docxEntries(new Uint8Array(Buffer.from(out.content_base64 ?? '', 'base64')));
    let xml = entries.get('word/document.xml') ?? '';
    // The costs block's one paragraph: a run after its control's end, and one before its start.
    const at = xml.indexOf('אין צו להוצאות.');
    const end = xml.indexOf('</w:sdt>', at) + '</w:sdt>'.length;
    xml = `${xml.slice(0, end)}${ins(901, ' בנסיבות העניין')}${xml.slice(end)}`;
    const start = xml.lastIndexOf('<w:sdt>', at);
    xml = `${xml.slice(0, start)}${ins(902, 'לפיכך, ')}${xml.slice(start)}`;
    entries.set('word/document.xml', xml);
    const doc = await readDocx(await writeZip(entries));
    const exported = out.blocks.map((b) => ({ ...b, paragraphs: 1 }));
    const costs = mapBlocks(doc, exported).find((b) => b.key === 'costs');
    expect(costs).toMatchObject({
      found: true,
      finalText: 'לפיכך, אין צו להוצאות. בנסיבות העניין',
      rejectedText: 'אין צו להוצאות.',
    });
    expect(costs?.changes.map((x) => [x.type, x.text.trim()]).sort()).toEqual(
      [
        ['insertion', 'בנסיבות העניין'],
        ['insertion', 'לפיכך,'],
      ].sort(),
    );
    expect(editRatio(costs?.rejectedText ?? '', costs?.finalText ?? '')).toBeGreaterThan(0);
    // No other block took them.
    const others = mapBlocks(doc, exported).filter((b) => b.key !== 'costs');
    expect(others.flatMap((b) => b.changes)).toEqual([]);
  });
});
