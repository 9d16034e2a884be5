// The OCR engine the settings name (OCR_ENGINE, src/config.ts): one configuration away from the managed path.
// The Tesseract engine is passed in by the entry that has it (Node), so a runtime without it never loads it.
import { type Env, ocrEnvSchema, parseEnv } from '../../config.ts';
import type { OcrEngine } from './engine.ts';
import { createGoogleVisionEngine } from './google_vision.ts';

export function configuredOcrEngine(
  env: Env,
  engines: { tesseract?: () => OcrEngine; fetch?: typeof fetch } = {},
): OcrEngine {
  const settings = parseEnv(ocrEnvSchema, env);
  if (settings.OCR_ENGINE === 'google_vision') {
    return createGoogleVisionEngine({
      // Checked by ocrEnvSchema: google_vision without a key is refused there, naming the variable.
      apiKey: settings.GOOGLE_VISION_API_KEY ?? '',
      endpoint: settings.GOOGLE_VISION_ENDPOINT,
      ...(engines.fetch === undefined ? {} : { fetch: engines.fetch }),
    });
  }
  if (engines.tesseract === undefined) {
    throw new Error(
      'OCR_ENGINE is tesseract, which this runtime cannot run: set OCR_ENGINE=google_vision and GOOGLE_VISION_API_KEY (docs/operations.md)',
    );
  }
  return engines.tesseract();
}
