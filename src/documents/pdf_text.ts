/** A pdf.js text item (the fields page text is built from). */
export interface TextItem {
  str: string;
  dir?: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL?: boolean;
}

/** A page's text from its items. */
export function pageText(items: readonly TextItem[]): string {
  return items.map((i) => i.str + (i.hasEOL === true ? '\n' : '')).join('');
}
