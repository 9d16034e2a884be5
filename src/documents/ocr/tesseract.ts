import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OcrEngine, OcrResult } from './engine.ts';
import { normaliseOcrText } from './normalise.ts';

const require = createRequire(import.meta.url);

/**
 * The trained models, from the registry packages `@tesseract.js-data/<code>` (installed by `npm install`,
 * so nothing is fetched at run time). Their `4.0.0_best_int` folder holds the LSTM-only models from
 * tessdata_best, integerised: the ones that read Hebrew best with the LSTM engine (`4.0.0` adds the legacy
 * engine's data, which the LSTM-only core never reads).
 */
export const OCR_LANGUAGES = ['heb', 'eng'] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];

const modelPath = (code: OcrLanguage) =>
  join(
    dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)),
    '4.0.0_best_int',
    `${code}.traineddata.gz`,
  );

type Worker = Awaited<ReturnType<typeof import('tesseract.js').createWorker>>;

/**
 * Tesseract (tesseract.js: the WASM build, in a worker thread of its own, so recognition never blocks this
 * thread). One worker per language set, created on first use and reused for every page; `close()`
 * terminates them.
 * Its core WASM is loaded from the `tesseract.js-core` package and the models from the packages above
 * (`langPath`, `cacheMethod: 'none'`): nothing is read from or written to a cache, nothing is downloaded. Pages are read one at a time (a worker runs one job at a time).
 */
export class TesseractEngine implements OcrEngine {
  readonly name = 'tesseract';
  // One worker per language set asked for (in practice two: Hebrew, and Hebrew with English).
  #workers = new Map<string, Promise<Worker>>();
  #tail: Promise<unknown> = Promise.resolve();

  async recognize(
    image: Uint8Array,
    options: { languages: readonly string[]; signal?: AbortSignal },
  ): Promise<OcrResult> {
    const langs = languagesOf(options.languages);
    const run = this.#tail.then(() => this.#recognize(image, langs, options.signal));
    this.#tail = run.catch(() => {});
    return run;
  }

  async #recognize(image: Uint8Array, langs: string, signal?: AbortSignal): Promise<OcrResult> {
    signal?.throwIfAborted();
    const worker = await this.#ready(langs);
    // Tesseract cannot stop a page half-way: an abort terminates the worker (the next page starts a new one).
    const aborted = new Promise<never>((_, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    const onAbort = () => void this.#drop(langs);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // A Buffer: what tesseract.js's image loader reads as bytes on Node.
      const result = await Promise.race([worker.recognize(Buffer.from(image)), aborted]);
      const confidence = Number(result.data.confidence);
      return {
        text: normaliseOcrText(result.data.text ?? ''),
        confidence: Number.isFinite(confidence) ? Math.max(0, Math.min(1, confidence / 100)) : 0,
      };
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #ready(langs: string): Promise<Worker> {
    let worker = this.#workers.get(langs);
    if (worker === undefined) {
      worker = createTesseractWorker(langs.split('+') as OcrLanguage[]);
      this.#workers.set(langs, worker);
      // A worker that failed to start is not kept: the next page tries again.
      worker.catch(() => this.#workers.delete(langs));
    }
    return worker;
  }

  async #drop(langs: string): Promise<void> {
    const worker = this.#workers.get(langs);
    this.#workers.delete(langs);
    await worker?.then((w) => w.terminate()).catch(() => {});
  }

  async close(): Promise<void> {
    await Promise.all([...this.#workers.keys()].map((langs) => this.#drop(langs)));
  }
}

/** The languages asked for, as Tesseract names them ("heb+eng"); unknown ones are refused. */
function languagesOf(languages: readonly string[]): string {
  const wanted = languages.length === 0 ? [...OCR_LANGUAGES] : [...languages];
  for (const l of wanted) {
    if (!(OCR_LANGUAGES as readonly string[]).includes(l)) {
      throw new Error(`OCR language ${l} is not installed (installed: ${OCR_LANGUAGES.join(', ')})`);
    }
  }
  return [...new Set(wanted)].join('+');
}

async function createTesseractWorker(langs: readonly OcrLanguage[]): Promise<Worker> {
  const { createWorker, OEM, PSM } = await import('tesseract.js');
  // tesseract.js reads every model from one `langPath` folder (else the network), and ours are in one package
  // each: a folder of links to them, for as long as the worker reads them (models are loaded at its start).
  const dir = await mkdtemp(join(tmpdir(), 'chambers-tessdata-'));
  try {
    for (const code of langs) await symlink(modelPath(code), join(dir, `${code}.traineddata.gz`));
    const worker = await createWorker([...langs], OEM.LSTM_ONLY, {
      langPath: dir,
      gzip: true,
      cacheMethod: 'none',
      // Its own script, started below the agents' thread in priority (tesseract_thread.ts).
      workerPath: fileURLToPath(new URL('./tesseract_thread.ts', import.meta.url)),
    });
    try {
      // A page as a whole: columns, headings and tables found by layout analysis. (preserve_interword_spaces
      // is left off: with it, Hebrew words ran together.)
      await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO });
    } catch (e) {
      await worker.terminate().catch(() => {});
      throw e;
    }
    return worker;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let shared: TesseractEngine | undefined;

/** The process's OCR engine (one Tesseract worker for every page), created on first use. */
export function processOcrEngine(): TesseractEngine {
  shared ??= new TesseractEngine();
  return shared;
}

/** Terminates the process's OCR worker, if one was started (at shutdown). */
export async function closeProcessOcrEngine(): Promise<void> {
  await shared?.close();
}
