// WordprocessingML as a list of tokens (both DOCX readers: uploads and the chair's final version), read by
// saxes, a maintained streaming XML parser: start and end tags with their attributes, and text with its
// entities decoded. saxes never fetches or expands an external entity; malformed XML is an error.
import { SaxesParser } from 'saxes';

export interface XmlToken {
  close: boolean;
  name: string;
  attrs: Record<string, string>;
  selfClosing: boolean;
  /** Text between tags (decoded), or null for a tag. */
  text: string | null;
}

/** The document's tokens in order; throws on malformed XML (a corrupt part). */
export function xmlTokens(xml: string): XmlToken[] {
  const out: XmlToken[] = [];
  const parser = new SaxesParser({ xmlns: false, position: false });
  parser.on('opentag', (tag) => {
    out.push({
      close: false,
      name: tag.name,
      attrs: tag.attributes as Record<string, string>,
      selfClosing: tag.isSelfClosing,
      text: null,
    });
  });
  // A self-closing tag is one token (as written); saxes also reports its close, which is dropped here.
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing)
      out.push({ close: true, name: tag.name, attrs: {}, selfClosing: false, text: null });
  });
  parser.on('text', (text) => {
    out.push({ close: false, name: '', attrs: {}, selfClosing: false, text });
  });
  parser.on('cdata', (text) => {
    out.push({ close: false, name: '', attrs: {}, selfClosing: false, text });
  });
  parser.write(xml).close();
  return out;
}
