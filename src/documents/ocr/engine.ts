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

/**
 * An engine loaded on its first page (so a process that never reads a scan never loads one), under `name`.
 * `close()` closes it only if it was loaded.
 */
export function lazyOcrEngine(name: string, load: () => Promise<OcrEngine>): OcrEngine {
  let engine: Promise<OcrEngine> | undefined;
  const get = () => {
    engine ??= load().catch((e: unknown) => {
      engine = undefined;
      throw e;
    });
    return engine;
  };
  return {
    name,
    recognize: async (image, options) => (await get()).recognize(image, options),
    close: async () => {
      if (engine !== undefined) await (await engine).close();
    },
  };
}
