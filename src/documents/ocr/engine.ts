// What an OCR engine does for the reader: one page image in, its text and a confidence out. Two engines
// implement it: Tesseract in-process (Node) and Google Cloud Vision (the managed path for Workers).
export interface OcrResult {
  text: string;
  confidence: number /* 0..1 */;
}
export interface OcrEngine {
  readonly name: string;
  recognize(
    image: Uint8Array /* PNG or JPEG bytes */,
    options: { languages: readonly string[]; signal?: AbortSignal },
  ): Promise<OcrResult>;
  close(): Promise<void>;
}
