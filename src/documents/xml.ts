// A plain tokenizer over WordprocessingML (both DOCX readers: uploads and the chair's final version): start
// and end tags with their attributes, and text with its entities decoded. No DTDs, no external entities:
// nothing in the XML can make it fetch or expand anything.

const TOKEN =
  /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<!DOCTYPE[^>]*>|<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
const ATTR = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export const decodeXml = (s: string) =>
  s.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g, (_, e: string) => {
    if (e[0] !== '#') return NAMED[e] ?? '';
    const code = e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });

function attrs(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of raw.matchAll(ATTR)) out[m[1] ?? ''] = decodeXml(m[2] ?? m[3] ?? '');
  return out;
}

export interface XmlToken {
  close: boolean;
  name: string;
  attrs: Record<string, string>;
  selfClosing: boolean;
  /** Text between tags (decoded), or null for a tag. */
  text: string | null;
}

export function* xmlTokens(xml: string): Generator<XmlToken> {
  for (const m of xml.matchAll(TOKEN)) {
    if (m[1] !== undefined) yield { close: false, name: '', attrs: {}, selfClosing: false, text: m[1] };
    else if (m[6] !== undefined)
      yield { close: false, name: '', attrs: {}, selfClosing: false, text: decodeXml(m[6]) };
    else if (m[3] !== undefined)
      yield {
        close: m[2] === '/',
        name: m[3],
        attrs: attrs(m[4] ?? ''),
        selfClosing: m[5] === '/',
        text: null,
      };
  }
}
