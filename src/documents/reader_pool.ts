// The Node reader: documents are parsed in a small pool of worker threads (reader_thread.ts), never on the
// thread that answers the agents. Bounded threads, bytes transferred (not copied twice), a hard time cap
// per read that ends the thread (pdf.js between its own steps cannot be interrupted otherwise), a memory
// cap per thread, and close() for the server's shutdown. Node only (node:worker_threads).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DocumentMediaType } from '../db/schema/documents.ts';
import type { ExtractorFinder, FindDocument } from '../extractors/framework.ts';
import { ExtractionError } from './errors.ts';
import { MAX_EXTRACT_MS } from './media.ts';
import type { DocumentRead } from './pages.ts';
import type { PageReader } from './reader.ts';
import { READER_READY, READER_THREAD, type ReadReply } from './reader_thread.ts';

export interface ReaderPoolOptions {
  /** Threads at most (default: one core less than the machine has, at least 1, at most 2). */
  threads?: number;
  /** A read past this many ms ends its thread and fails `timeout` (default MAX_EXTRACT_MS, 60 s). */
  timeoutMs?: number;
  /** A thread idle this long ends (the next read starts another); default 30 s. */
  idleMs?: number;
  /** Each thread's heap cap, MB; a read past it fails `too_large` (default 512). */
  maxHeapMb?: number;
  /** The thread's script (default reader_thread.ts); tests give one that misbehaves. */
  script?: URL;
}

export interface ReaderPool extends PageReader, ExtractorFinder {
  /** Threads alive now (started and not yet exited). */
  liveThreads(): number;
}

/** What a thread is asked: a document to read, or an extractor's rules to run on pages. */
type Work =
  | { bytes: Uint8Array; mediaType: DocumentMediaType }
  | { find: { kind: string; document: FindDocument; pages: readonly string[]; input: unknown } }
  | { image: { bytes: Uint8Array; mediaType: DocumentMediaType; page: number } };

interface Task {
  id: number;
  work: Work;
  signal: AbortSignal | undefined;
  /** A read's DocumentRead, or what a find found. */
  resolve(value: unknown): void;
  reject(error: unknown): void;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  /** The thread has loaded the reader and listens (its start-up is not counted against a document's time). */
  ready: boolean;
  task: Task | null;
  timer: ReturnType<typeof setTimeout> | undefined;
  idle: ReturnType<typeof setTimeout> | undefined;
  exited: Promise<void>;
}

const DEFAULT_SCRIPT = new URL('./reader_thread.ts', import.meta.url);

const closedError = () =>
  new Error('The document reader is closed (the server is stopping); the read runs again');

export function createReaderPool(options: ReaderPoolOptions = {}): ReaderPool {
  const maxThreads = Math.max(1, options.threads ?? Math.min(2, availableParallelism() - 1));
  const timeoutMs = options.timeoutMs ?? MAX_EXTRACT_MS;
  const idleMs = options.idleMs ?? 30_000;
  const script = options.script ?? DEFAULT_SCRIPT;
  const slots = new Set<Slot>();
  const queue: Task[] = [];
  let nextId = 1;
  let closed = false;
  /** Every thread not yet exited, retired ones included (close waits for them all). */
  const alive = new Set<Promise<void>>();

  const settle = (slot: Slot, outcome: { value: unknown } | { error: unknown }) => {
    const task = slot.task;
    if (task === null) return;
    slot.task = null;
    clearTimeout(slot.timer);
    if (task.onAbort !== undefined) task.signal?.removeEventListener('abort', task.onAbort);
    if ('value' in outcome) task.resolve(outcome.value);
    else task.reject(outcome.error);
  };

  /** Ends a thread (a stuck read, an abort, idleness, close); its task, if any, is settled by the caller. */
  const retire = (slot: Slot) => {
    slots.delete(slot);
    clearTimeout(slot.idle);
    clearTimeout(slot.timer);
    void slot.worker.terminate();
  };

  const start = (): Slot => {
    const worker = new Worker(script, {
      workerData: script === DEFAULT_SCRIPT ? READER_THREAD : undefined,
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 512 },
    });
    let exitedResolve: () => void = () => {};
    const slot: Slot = {
      worker,
      ready: false,
      task: null,
      timer: undefined,
      idle: undefined,
      exited: new Promise<void>((resolve) => {
        exitedResolve = resolve;
      }),
    };
    alive.add(slot.exited);
    void slot.exited.then(() => alive.delete(slot.exited));
    let failure: unknown;
    worker.on('message', (reply: ReadReply | typeof READER_READY) => {
      if (reply === READER_READY) {
        slot.ready = true;
        if (slot.task !== null) send(slot);
        return;
      }
      if (slot.task === null || reply.id !== slot.task.id) return;
      if (reply.ok)
        settle(slot, { value: 'read' in reply ? reply.read : 'image' in reply ? reply.image : reply.found });
      else
        settle(slot, {
          error:
            reply.extraction === undefined
              ? new Error(reply.message)
              : new ExtractionError(reply.extraction.failure, reply.message, {
                  permanent: reply.extraction.permanent,
                }),
        });
      pump(slot);
    });
    worker.on('error', (e) => {
      failure = e;
    });
    worker.on('exit', (code) => {
      exitedResolve();
      const wasOurs = slots.delete(slot);
      clearTimeout(slot.idle);
      // A thread that ended by itself mid-read (a crash, out of memory) fails that read for good: the same
      // bytes would end it again.
      if (wasOurs && slot.task !== null) {
        const outOfMemory =
          failure instanceof Error && (failure as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
        const why = failure instanceof Error ? failure.message : `exit code ${code}`;
        settle(slot, {
          error: outOfMemory
            ? new ExtractionError(
                'too_large',
                'The document needs more memory to read than a reader is allowed; split it into smaller files',
              )
            : new ExtractionError(
                'broken',
                `The reader stopped while reading the document (${why}); the file may be damaged: save it again as PDF or DOCX and upload that`,
              ),
        });
      }
      schedule();
    });
    slots.add(slot);
    return slot;
  };

  /** Gives a waiting task to the slot, or lets it idle (and end after idleMs). */
  const pump = (slot: Slot) => {
    if (!slots.has(slot)) return;
    const task = queue.shift();
    if (task === undefined) {
      slot.worker.unref();
      slot.idle = setTimeout(() => retire(slot), idleMs);
      slot.idle.unref();
      return;
    }
    clearTimeout(slot.idle);
    slot.worker.ref();
    slot.task = task;
    if (slot.ready) send(slot);
  };

  /** Sends the slot's task to its thread, and starts the time cap. */
  const send = (slot: Slot) => {
    const task = slot.task;
    if (task === null) return;
    slot.timer = setTimeout(() => {
      settle(slot, {
        error: new ExtractionError(
          'timeout',
          `The document is too slow to read: reading took longer than ${timeoutMs / 1000} s; try a smaller or simpler file`,
        ),
      });
      retire(slot);
      schedule();
    }, timeoutMs);
    const work = task.work;
    if ('find' in work) {
      slot.worker.postMessage({ id: task.id, find: work.find });
      return;
    }
    if ('image' in work) {
      const bytes = work.image.bytes.slice();
      slot.worker.postMessage({ id: task.id, image: { ...work.image, bytes } }, [bytes.buffer]);
      return;
    }
    // The bytes move to the thread: a copy of exactly their length, so the caller's buffer stays whole.
    const bytes = work.bytes.slice();
    slot.worker.postMessage({ id: task.id, bytes, mediaType: work.mediaType }, [bytes.buffer]);
  };

  /** Starts threads for waiting tasks, up to the bound, and hands tasks to idle threads. */
  const schedule = () => {
    if (closed) return;
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (slot.task === null) pump(slot);
    }
    while (queue.length > 0 && slots.size < maxThreads) pump(start());
  };

  /** Queues work for a thread; an aborted signal takes it back (or ends the thread doing it). */
  const submit = (work: Work, signal: AbortSignal | undefined): Promise<unknown> => {
    if (closed) return Promise.reject(closedError());
    signal?.throwIfAborted();
    return new Promise<unknown>((resolve, reject) => {
      const task: Task = { id: nextId++, work, signal, resolve, reject };
      if (signal !== undefined) {
        task.onAbort = () => {
          const waiting = queue.indexOf(task);
          if (waiting >= 0) {
            queue.splice(waiting, 1);
            reject(signal.reason);
            return;
          }
          for (const slot of slots) {
            if (slot.task !== task) continue;
            settle(slot, { error: signal.reason });
            retire(slot);
            schedule();
          }
        };
        signal.addEventListener('abort', task.onAbort, { once: true });
      }
      queue.push(task);
      schedule();
    });
  };

  return {
    read: (bytes, mediaType, readOptions = {}) =>
      submit({ bytes, mediaType }, readOptions.signal) as Promise<DocumentRead>,
    // A scanned page's image for OCR: decoding and re-encoding it are CPU work, so the same threads do it.
    pageImage: (bytes, mediaType, page, imageOptions = {}) =>
      submit({ image: { bytes, mediaType, page } }, imageOptions.signal) as Promise<Uint8Array | null>,
    // An extractor's rules on a document's pages: the same threads, so they never hold the agents' thread.
    find: (kind, document, pages, input, findOptions = {}) =>
      submit({ find: { kind, document, pages, input } }, findOptions.signal),
    liveThreads: () => alive.size,
    async close() {
      closed = true;
      for (const task of queue.splice(0)) {
        if (task.onAbort !== undefined) task.signal?.removeEventListener('abort', task.onAbort);
        task.reject(closedError());
      }
      for (const slot of [...slots]) {
        settle(slot, { error: closedError() });
        retire(slot);
      }
      await Promise.all([...alive]);
    },
  };
}
