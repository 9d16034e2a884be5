/**
 * Why extraction of a document failed. `permanent` failures come from the bytes themselves (encrypted,
 * broken, no text, too big, too slow to read): running again cannot help, so the queue should dead-letter the job at once.
 * Any other error thrown by extractAndIndexDocument (a database fault, a timeout) is transient: retry it.
 */
export type ExtractionFailure =
  | 'encrypted'
  | 'broken'
  | 'no_text'
  | 'too_large'
  | 'timeout'
  | 'unsupported'
  | 'document_missing'
  /** The OCR service refused the work (a bad key, a disabled API, an image it cannot read). */
  | 'ocr_service';

export class ExtractionError extends Error {
  readonly failure: ExtractionFailure;
  readonly permanent: boolean;

  constructor(
    failure: ExtractionFailure,
    message: string,
    options: { permanent?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ExtractionError';
    this.failure = failure;
    this.permanent = options.permanent ?? true;
  }
}

/** True when retrying the job cannot succeed (dead-letter it); false for transient faults (retry with backoff). */
export const isPermanentExtractionFailure = (e: unknown): boolean =>
  e instanceof ExtractionError && e.permanent;
