/** What reads the text of an image: Tesseract in this process (tesseract.ts), or a managed service beside it. */
export interface OcrResult {
  text: string;
  /** 0..1, the engine's mean word confidence. */
  confidence: number;
}

export interface OcrEngine {
  readonly name: string;
  recognize(
    /** PNG or JPEG bytes. */
    image: Uint8Array,
    options: { languages: readonly string[]; signal?: AbortSignal },
  ): Promise<OcrResult>;
  close(): Promise<void>;
}
