// Reading the chair's final version (a DOCX) through the bounded ZIP reader every DOCX path uses
// (src/documents/zip.ts): the parts' inflated bytes are capped as they come out, whatever the headers claim.
import { MAX_DOCX_INFLATED_BYTES } from '../documents/media.ts';
import { isZip, readZipEntries, ZipError, zipEntryNames } from '../documents/zip.ts';

export { isZip, ZipError };

/** The named entries of a ZIP file as text (UTF-8); entries absent from the file are absent from the map. */
export async function readZipTexts(zip: Uint8Array, names: readonly string[]): Promise<Map<string, string>> {
  const decoder = new TextDecoder();
  const parts = await readZipEntries(zip, (name) => names.includes(name), {
    maxInflatedBytes: MAX_DOCX_INFLATED_BYTES,
  });
  return new Map([...parts].map(([name, bytes]) => [name, decoder.decode(bytes)]));
}

/** The names of a ZIP file's entries, in order. */
export const zipNames = (zip: Uint8Array): string[] => zipEntryNames(zip);
