// A local stand-in for Google Cloud Vision's images:annotate (REST v1), for tests and offline development of
// the google_vision OCR engine (src/documents/ocr/google_vision.ts). It speaks the real protocol: the API key
// in `?key=`, the AnnotateImagesRequest body (1 to 16 requests, each an inline base64 image, its features,
// an optional imageContext.languageHints), google.rpc.Status errors with Google's HTTP codes, and an
// AnnotateImagesResponse whose fullTextAnnotation has pages → blocks → paragraphs → words → symbols with
// confidences. It reads no image: the text it answers is the one registered for the image's bytes.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const FEATURE_TYPES = new Set([
  'TYPE_UNSPECIFIED',
  'FACE_DETECTION',
  'LANDMARK_DETECTION',
  'LOGO_DETECTION',
  'LABEL_DETECTION',
  'TEXT_DETECTION',
  'DOCUMENT_TEXT_DETECTION',
  'SAFE_SEARCH_DETECTION',
  'IMAGE_PROPERTIES',
  'CROP_HINTS',
  'WEB_DETECTION',
  'PRODUCT_SEARCH',
  'OBJECT_LOCALIZATION',
]);
const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export interface VisionStandIn {
  /** The origin to give GOOGLE_VISION_ENDPOINT. */
  url: string;
  apiKey: string;
  /** Answers `text` (with `confidence` per word) for an image with exactly these bytes. */
  setText(image: Uint8Array, text: string, confidence?: number): void;
  /** The next `times` requests get this HTTP status with Google's error body (429, 500, 503…). */
  failNext(status: number, times?: number): void;
  /** Every well-formed request body received, in order. */
  received: unknown[];
  close(): Promise<void>;
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const errorBody = (code: number, message: string, reason?: string) => ({
  error: {
    code,
    message,
    status: STATUS_NAMES[code] ?? 'UNKNOWN',
    ...(reason === undefined
      ? {}
      : {
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason,
              domain: 'googleapis.com',
              metadata: { service: 'vision.googleapis.com' },
            },
          ],
        }),
  },
});

const isImage = (b: Buffer) =>
  (b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) ||
  (b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff);

/** The fullTextAnnotation Vision gives for a page of `text`, every word and symbol at `confidence`. */
function annotation(text: string, confidence: number) {
  const lines = text.split('\n');
  return {
    pages: [
      {
        property: { detectedLanguages: [{ languageCode: 'iw', confidence: 1 }] },
        width: 2480,
        height: 3508,
        blocks: [
          {
            blockType: 'TEXT',
            confidence,
            paragraphs: lines.map((line) => ({
              confidence,
              words: line
                .split(/\s+/)
                .filter((w) => w !== '')
                .map((w) => ({ confidence, symbols: [...w].map((c) => ({ text: c, confidence })) })),
            })),
          },
        ],
        confidence,
      },
    ],
    // Vision ends the text with a line break.
    text: `${text}\n`,
  };
}

/** Why a request body is not an AnnotateImagesRequest this stand-in serves, or null when it is. */
function badRequest(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return 'Invalid JSON payload received.';
  const requests = (body as { requests?: unknown }).requests;
  if (!Array.isArray(requests) || requests.length === 0) return 'No requests specified.';
  if (requests.length > 16) return 'Too many images per request (at most 16).';
  for (const [i, r] of requests.entries()) {
    const req = r as { image?: { content?: unknown }; features?: unknown; imageContext?: unknown };
    if (typeof req.image?.content !== 'string' || req.image.content === '')
      return `requests[${i}].image.content: an inline base64 image is required.`;
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(req.image.content))
      return `Invalid value at 'requests[${i}].image.content' (TYPE_BYTES), Base64 decoding failed.`;
    if (!Array.isArray(req.features) || req.features.length === 0)
      return `requests[${i}].features: at least one feature is required.`;
    for (const f of req.features as { type?: unknown }[]) {
      if (typeof f.type !== 'string' || !FEATURE_TYPES.has(f.type))
        return `Invalid value at 'requests[${i}].features[].type' (type.googleapis.com/google.cloud.vision.v1.Feature.Type), "${String(f.type)}"`;
    }
    const hints = (req.imageContext as { languageHints?: unknown } | undefined)?.languageHints;
    if (hints !== undefined && (!Array.isArray(hints) || hints.some((h) => typeof h !== 'string')))
      return `requests[${i}].imageContext.languageHints: a list of BCP-47 language codes.`;
  }
  return null;
}

const readBody = async (req: IncomingMessage) => {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
};

export async function startVisionStandIn(options: { apiKey?: string } = {}): Promise<VisionStandIn> {
  const apiKey = options.apiKey ?? `standin-${crypto.randomUUID()}`;
  const texts = new Map<string, { text: string; confidence: number }>();
  const failures: number[] = [];
  const received: unknown[] = [];
  const server: Server = createServer(async (req, res) => {
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(json));
    };
    const url = new URL(req.url ?? '/', 'http://standin');
    const raw = await readBody(req);
    if (req.method !== 'POST' || url.pathname !== '/v1/images:annotate')
      return send(404, errorBody(404, 'Method not found.'));
    const key = url.searchParams.get('key');
    if (key === null)
      return send(403, errorBody(403, 'The request is missing a valid API key.', 'API_KEY_MISSING'));
    if (key !== apiKey)
      return send(400, errorBody(400, 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID'));
    const failure = failures.shift();
    if (failure !== undefined) {
      const message =
        failure === 429
          ? "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service 'vision.googleapis.com'."
          : 'The service is currently unavailable.';
      return send(failure, errorBody(failure, message));
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return send(400, errorBody(400, 'Invalid JSON payload received.'));
    }
    const bad = badRequest(body);
    if (bad !== null) return send(400, errorBody(400, bad));
    received.push(body);
    const responses = (body as { requests: { image: { content: string } }[] }).requests.map((r) => {
      const bytes = Buffer.from(r.image.content, 'base64');
      if (!isImage(bytes)) return { error: { code: 3, message: 'Bad image data.' } };
      const known = texts.get(sha(bytes));
      // An image without text: Vision answers an empty response for it.
      return known === undefined ? {} : { fullTextAnnotation: annotation(known.text, known.confidence) };
    });
    send(200, { responses });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    setText(image, text, confidence = 0.98) {
      texts.set(sha(image), { text, confidence });
    },
    failNext(status, times = 1) {
      for (let i = 0; i < times; i++) failures.push(status);
    },
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
