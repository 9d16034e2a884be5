// The managed OCR engine: Google Cloud Vision's REST API, images:annotate with DOCUMENT_TEXT_DETECTION (dense
// text), one image per request, the image inline as base64. It runs wherever fetch does (the extraction
// Worker, which cannot run Tesseract). Failures keep their meaning for the queue: a bad key, a disabled API
// or an image Vision refuses are permanent (ExtractionError 'ocr_service', naming what to fix); quota (429)
// and the service's own faults (5xx, a dropped connection) are transient, so the job is retried with backoff.
import { ExtractionError } from '../errors.ts';
import type { OcrEngine, OcrResult } from './engine.ts';

export const GOOGLE_VISION_ENDPOINT = 'https://vision.googleapis.com';
const KEY_SETTING = 'GOOGLE_VISION_API_KEY';

export interface GoogleVisionOptions {
  apiKey: string;
  /** Another server speaking Vision's protocol (a local stand-in); Google's by default. */
  endpoint?: string | undefined;
  fetch?: typeof fetch;
}

/** The parts of Vision's AnnotateImageResponse this engine reads. */
interface VisionWord {
  confidence?: number;
}
interface VisionPage {
  confidence?: number;
  blocks?: { paragraphs?: { words?: VisionWord[] }[] }[];
}
interface VisionStatus {
  code?: number;
  message?: string;
  status?: string;
  details?: { reason?: string }[];
}
interface AnnotateImageResponse {
  fullTextAnnotation?: { text?: string; pages?: VisionPage[] };
  error?: VisionStatus;
}

/** A transient failure (quota, the service down): the job queue retries it. */
const transient = (message: string, cause?: unknown) =>
  new ExtractionError('ocr_service', message, { permanent: false, cause });

const permanent = (message: string) => new ExtractionError('ocr_service', message);

/** The page's confidence: Vision's own per page, else the mean of its words'; 0 without text. */
function confidenceOf(pages: readonly VisionPage[]): number {
  const own = pages.map((p) => p.confidence).filter((c): c is number => typeof c === 'number');
  if (own.length > 0) return own.reduce((a, b) => a + b, 0) / own.length;
  const words = pages.flatMap((p) =>
    (p.blocks ?? []).flatMap((b) => (b.paragraphs ?? []).flatMap((para) => para.words ?? [])),
  );
  const scored = words.map((w) => w.confidence).filter((c): c is number => typeof c === 'number');
  return scored.length === 0 ? 0 : scored.reduce((a, b) => a + b, 0) / scored.length;
}

/** An error answer (HTTP status and google.rpc.Status) as a failure the queue understands. */
function failureOf(httpStatus: number, error: VisionStatus | undefined): ExtractionError {
  const said = error?.message ?? `HTTP ${httpStatus}`;
  const reasons = (error?.details ?? []).map((d) => d.reason);
  if (reasons.includes('API_KEY_INVALID') || httpStatus === 401) {
    return permanent(
      `Google Cloud Vision refused the API key (${said}): set ${KEY_SETTING} to a valid key, then re-read the failed documents`,
    );
  }
  if (httpStatus === 403 || error?.status === 'PERMISSION_DENIED') {
    return permanent(
      `Google Cloud Vision refused the request (${said}): enable the Vision API and billing for the project of ${KEY_SETTING}, or check the key's restrictions`,
    );
  }
  if (httpStatus === 429 || error?.status === 'RESOURCE_EXHAUSTED' || error?.code === 8) {
    return transient(`Google Cloud Vision quota exceeded (${said}); the page is read again later`);
  }
  if (httpStatus >= 500 || error?.status === 'UNAVAILABLE' || error?.status === 'INTERNAL') {
    return transient(`Google Cloud Vision is unavailable (${said}); the page is read again later`);
  }
  return permanent(`Google Cloud Vision cannot read this image (${said})`);
}

/** Vision's base64 of the bytes (no line breaks), built in slices so a large image stays within the call stack. */
function base64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 8192) bin += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return btoa(bin);
}

export function createGoogleVisionEngine(options: GoogleVisionOptions): OcrEngine {
  const endpoint = (options.endpoint ?? GOOGLE_VISION_ENDPOINT).replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  return {
    name: 'google_vision',
    async recognize(image, { languages, signal }): Promise<OcrResult> {
      const body = {
        requests: [
          {
            image: { content: base64(image) },
            features: [{ type: 'DOCUMENT_TEXT_DETECTION' }],
            imageContext: { languageHints: [...languages] },
          },
        ],
      };
      let response: Response;
      try {
        response = await doFetch(`${endpoint}/v1/images:annotate?key=${encodeURIComponent(options.apiKey)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify(body),
          ...(signal === undefined ? {} : { signal }),
        });
      } catch (e) {
        if (signal?.aborted === true) throw signal.reason;
        throw transient(
          `Google Cloud Vision did not answer (${e instanceof Error ? e.message : String(e)})`,
          e,
        );
      }
      const answer = (await response.json().catch(() => null)) as {
        responses?: AnnotateImageResponse[];
        error?: VisionStatus;
      } | null;
      if (!response.ok) throw failureOf(response.status, answer?.error);
      const first = answer?.responses?.[0];
      if (first === undefined)
        throw transient('Google Cloud Vision answered without a response for the image');
      // A per-image error comes inside a 200 answer.
      if (first.error !== undefined && (first.error.code ?? 0) !== 0) {
        throw failureOf(first.error.code === 8 ? 429 : first.error.code === 14 ? 503 : 400, first.error);
      }
      const text = first.fullTextAnnotation?.text ?? '';
      return {
        text,
        confidence: text.trim() === '' ? 0 : confidenceOf(first.fullTextAnnotation?.pages ?? []),
      };
    },
    async close() {},
  };
}
