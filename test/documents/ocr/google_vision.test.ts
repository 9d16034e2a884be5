// The google_vision OCR engine over real HTTP against the stand-in that speaks Vision's images:annotate
// protocol (scripts/dev/vision_standin.ts): the request it sends, the text and confidence it reads back, and
// how each kind of refusal reaches the queue (permanent, naming the setting to fix; or transient, retried).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVisionStandIn, type VisionStandIn } from '../../../scripts/dev/vision_standin.ts';
import { ConfigError, ocrEnvSchema, parseEnv } from '../../../src/config.ts';
import { ExtractionError, isPermanentExtractionFailure } from '../../../src/documents/errors.ts';
import { configuredOcrEngine } from '../../../src/documents/ocr/configured.ts';
import { createGoogleVisionEngine } from '../../../src/documents/ocr/google_vision.ts';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bytes that open like a PNG, unique per call (the stand-in matches images by their bytes, reads none). */
const pngLike = () => new Uint8Array([...PNG_SIGNATURE, ...new TextEncoder().encode(crypto.randomUUID())]);
const languages = ['he', 'en'] as const;

const failureOf = async (work: Promise<unknown>) => {
  const e = await work.then(
    () => null,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(ExtractionError);
  return e as ExtractionError;
};

describe('google_vision OCR engine against the Vision stand-in', () => {
  let standIn: VisionStandIn;
  const engine = () => createGoogleVisionEngine({ apiKey: standIn.apiKey, endpoint: standIn.url });

  beforeAll(async () => {
    standIn = await startVisionStandIn();
  });
  afterAll(() => standIn.close());

  it('sends DOCUMENT_TEXT_DETECTION with Hebrew and English hints and the image inline; reads the text and confidence', async () => {
    const image = pngLike();
    const text = 'ערר מס׳ 8123/25\nגוש 6638 חלקה 12';
    standIn.setText(image, text, 0.91);
    const result = await engine().recognize(image, { languages });
    expect(result.text.trim()).toBe(text);
    expect(result.confidence).toBeCloseTo(0.91, 5);
    expect(standIn.received.at(-1)).toEqual({
      requests: [
        {
          image: { content: Buffer.from(image).toString('base64') },
          features: [{ type: 'DOCUMENT_TEXT_DETECTION' }],
          imageContext: { languageHints: ['he', 'en'] },
        },
      ],
    });
  });

  it('an image without text is empty text with confidence 0', async () => {
    expect(await engine().recognize(pngLike(), { languages })).toEqual({ text: '', confidence: 0 });
  });

  it('a bad key fails for good, naming GOOGLE_VISION_API_KEY', async () => {
    const bad = createGoogleVisionEngine({ apiKey: 'not-the-key', endpoint: standIn.url });
    const e = await failureOf(bad.recognize(pngLike(), { languages }));
    expect(e.failure).toBe('ocr_service');
    expect(isPermanentExtractionFailure(e)).toBe(true);
    expect(e.message).toMatch(/GOOGLE_VISION_API_KEY/);
    expect(e.message).toMatch(/API key not valid/);
  });

  it('quota (429) and the service down (503, 500) are transient: the queue retries them', async () => {
    for (const status of [429, 503, 500]) {
      standIn.failNext(status);
      const e = await failureOf(engine().recognize(pngLike(), { languages }));
      expect(e.failure).toBe('ocr_service');
      expect(isPermanentExtractionFailure(e), String(status)).toBe(false);
      expect(e.message).toMatch(status === 429 ? /quota/i : /unavailable/i);
    }
    // And the next request, once the service is back, reads.
    const image = pngLike();
    standIn.setText(image, 'החלטה');
    expect((await engine().recognize(image, { languages })).text.trim()).toBe('החלטה');
  });

  it('an image Vision cannot read (its per-image error inside a 200) fails for good', async () => {
    const e = await failureOf(engine().recognize(new TextEncoder().encode('not an image'), { languages }));
    expect(isPermanentExtractionFailure(e)).toBe(true);
    expect(e.message).toMatch(/Bad image data/);
  });

  it('a service that does not answer is transient', async () => {
    const closed = await startVisionStandIn();
    const url = closed.url;
    await closed.close();
    const e = await failureOf(
      createGoogleVisionEngine({ apiKey: 'k', endpoint: url }).recognize(pngLike(), { languages }),
    );
    expect(isPermanentExtractionFailure(e)).toBe(false);
  });

  it('OCR_ENGINE=google_vision with its key and endpoint is the engine the settings give', async () => {
    const configured = configuredOcrEngine({
      OCR_ENGINE: 'google_vision',
      GOOGLE_VISION_API_KEY: standIn.apiKey,
      GOOGLE_VISION_ENDPOINT: standIn.url,
    });
    expect(configured.name).toBe('google_vision');
    const image = pngLike();
    standIn.setText(image, 'פרוטוקול הדיון');
    expect((await configured.recognize(image, { languages })).text.trim()).toBe('פרוטוקול הדיון');
    // Tesseract where the runtime has none (Workers): refused, saying what to set.
    expect(() => configuredOcrEngine({})).toThrow(/OCR_ENGINE=google_vision and GOOGLE_VISION_API_KEY/);
  });

  it('an aborted signal ends the request with its reason', async () => {
    const stop = new AbortController();
    stop.abort(new Error('drain stopped'));
    await expect(engine().recognize(pngLike(), { languages, signal: stop.signal })).rejects.toThrow(
      'drain stopped',
    );
  });
});

describe('OCR settings', () => {
  it('default to tesseract; google_vision needs its key, and the message names it', () => {
    expect(parseEnv(ocrEnvSchema, {}).OCR_ENGINE).toBe('tesseract');
    expect(() => parseEnv(ocrEnvSchema, { OCR_ENGINE: 'google_vision' })).toThrow(ConfigError);
    expect(() => parseEnv(ocrEnvSchema, { OCR_ENGINE: 'google_vision' })).toThrow(/GOOGLE_VISION_API_KEY/);
    expect(() => parseEnv(ocrEnvSchema, { OCR_ENGINE: 'abbyy' })).toThrow(/OCR_ENGINE/);
    expect(() =>
      parseEnv(ocrEnvSchema, {
        OCR_ENGINE: 'google_vision',
        GOOGLE_VISION_API_KEY: 'k',
        GOOGLE_VISION_ENDPOINT: 'ftp://x',
      }),
    ).toThrow(/GOOGLE_VISION_ENDPOINT/);
    expect(parseEnv(ocrEnvSchema, { OCR_ENGINE: 'google_vision', GOOGLE_VISION_API_KEY: 'k' })).toMatchObject(
      { OCR_ENGINE: 'google_vision', GOOGLE_VISION_API_KEY: 'k' },
    );
  });
});
