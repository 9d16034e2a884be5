// The chair's editing of an exported decision, as Word records it: a span replaced with tracked changes
// (w:del and w:ins, author and date), a tracked paragraph added inside a block, a direct (untracked) edit,
// and a comment (word/comments.xml, anchored by w:commentRangeStart/End).
import { docxEntries, writeZip } from '../../harness/zip.ts';

export const CHAIR = 'יו״ר הוועדה';
export const WHEN = '2026-11-30T10:00:00Z';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const rev = (kind: 'ins' | 'del', id: number, inner: string) =>
  `<w:${kind} w:id="${id}" w:author="${CHAIR}" w:date="${WHEN}">${inner}</w:${kind}>`;

/** The run holding `text` (the export writes one run per paragraph): its properties and whole text. */
function runWith(xml: string, text: string) {
  const re = /<w:r>(<w:rPr>[\s\S]*?<\/w:rPr>)<w:t xml:space="preserve">([^<]*)<\/w:t><\/w:r>/g;
  for (const m of xml.matchAll(re))
    if ((m[2] ?? '').includes(esc(text))) return { whole: m[0], rPr: m[1] ?? '', text: m[2] ?? '' };
  throw new Error(`no run with ${text}`);
}

/**
 * A paragraph added after the one holding `after`, with its paragraph properties (as Enter at its end does);
 * `content` gives the new paragraph's runs from the found run.
 */
function addParagraph(xml: string, after: string, content: (r: ReturnType<typeof runWith>) => string) {
  const r = runWith(xml, after);
  const at = xml.indexOf('</w:p>', xml.indexOf(r.whole)) + '</w:p>'.length;
  const pStart = xml.lastIndexOf('<w:p>', xml.indexOf(r.whole));
  const pPr = /<w:pPr>[\s\S]*?<\/w:pPr>/.exec(xml.slice(pStart, at))?.[0] ?? '';
  return `${xml.slice(0, at)}<w:p>${pPr}${content(r)}</w:p>${xml.slice(at)}`;
}

/** Paragraphs typed in directly (untracked), each after the paragraph holding its `after`. */
export async function chairAddParagraphs(
  bytes: Uint8Array,
  added: readonly { after: string; text: string }[],
): Promise<Uint8Array> {
  const entries = await docxEntries(bytes);
  let xml = entries.get('word/document.xml') ?? '';
  for (const a of added)
    xml = addParagraph(
      xml,
      a.after,
      (r) => `<w:r>${r.rPr}<w:t xml:space="preserve">${esc(a.text)}</w:t></w:r>`,
    );
  entries.set('word/document.xml', xml);
  return writeZip(entries);
}

export interface ChairEdits {
  /** A span of a run replaced with tracked changes. */
  tracked: { find: string; replace: string };
  /** A tracked paragraph added after the paragraph holding `after` (inside its block). */
  added: { after: string; text: string };
  /** A span replaced directly, untracked. */
  direct: { find: string; replace: string };
  /** A comment on the run holding `on`. */
  comment: { on: string; text: string };
}

export async function chairEdit(bytes: Uint8Array, e: ChairEdits): Promise<Uint8Array> {
  const entries = await docxEntries(bytes);
  let xml = entries.get('word/document.xml') ?? '';
  let id = 900;
  {
    const r = runWith(xml, e.tracked.find);
    const [before, after] = r.text.split(esc(e.tracked.find));
    const run = (t: string, tag = 'w:t') => `<w:r>${r.rPr}<${tag} xml:space="preserve">${t}</${tag}></w:r>`;
    xml = xml.replace(
      r.whole,
      run(before ?? '') +
        rev('del', id++, run(esc(e.tracked.find), 'w:delText')) +
        rev('ins', id++, run(esc(e.tracked.replace))) +
        run(after ?? ''),
    );
  }
  xml = addParagraph(xml, e.added.after, (r) =>
    rev('ins', id++, `<w:r>${r.rPr}<w:t xml:space="preserve">${esc(e.added.text)}</w:t></w:r>`),
  );
  {
    const r = runWith(xml, e.direct.find);
    xml = xml.replace(r.whole, r.whole.replace(esc(e.direct.find), esc(e.direct.replace)));
  }
  {
    const r = runWith(xml, e.comment.on);
    xml = xml.replace(
      r.whole,
      `<w:commentRangeStart w:id="0"/>${r.whole}<w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r>`,
    );
    entries.set(
      'word/comments.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:comments xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:comment w:id="0" w:author="${CHAIR}" w:date="${WHEN}" w:initials="יו"><w:p><w:r><w:t>${esc(e.comment.text)}</w:t></w:r></w:p></w:comment></w:comments>`,
    );
    const types = entries.get('[Content_Types].xml') ?? '';
    entries.set(
      '[Content_Types].xml',
      types.replace(
        '</Types>',
        '<Override PartName="/word/comments.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"/></Types>',
      ),
    );
    const rels = entries.get('word/_rels/document.xml.rels') ?? '';
    entries.set(
      'word/_rels/document.xml.rels',
      rels.replace(
        '</Relationships>',
        '<Relationship Id="rIdChairComments" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="comments.xml"/></Relationships>',
      ),
    );
  }
  entries.set('word/document.xml', xml);
  return writeZip(entries);
}
