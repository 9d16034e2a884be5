import type { Db } from '../db/types.ts';
import { errorText, type Logger } from '../log.ts';
import { type DrainReport, drainJobs } from './drain.ts';
import type { JobHandler } from './queue.ts';

export interface DrainLoopOptions {
  db: Db;
  handlers: Readonly<Record<string, JobHandler>>;
  log: Logger;
  /** Polls this often when nothing kicks it (delayed retries come due without a kick). */
  intervalMs?: number;
}

export interface DrainLoop {
  /** Drains soon (now, or right after the drain in progress). */
  kick(): void;
  /** Resolves when no drain is running and none is due from a kick. */
  idle(): Promise<void>;
  /** Stops claiming, waits for the jobs in hand, and ends the loop. */
  stop(): Promise<void>;
}

/** The in-process worker of `npm start`: drains on kicks, on a timer, and again while work remains. */
export function startDrainLoop(o: DrainLoopOptions): DrainLoop {
  const stopper = new AbortController();
  const workerId = `node-${crypto.randomUUID().slice(0, 8)}`;
  let kicked = true;
  let wake: (() => void) | undefined;
  let idleWaiters: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sleeping = false;

  const sleep = () =>
    new Promise<void>((resolve) => {
      sleeping = true;
      wake = resolve;
      timer = setTimeout(resolve, o.intervalMs ?? 5_000);
    }).finally(() => {
      sleeping = false;
      wake = undefined;
      clearTimeout(timer);
    });

  const run = async () => {
    while (!stopper.signal.aborted) {
      if (!kicked) {
        for (const w of idleWaiters) w();
        idleWaiters = [];
        await sleep();
        if (stopper.signal.aborted) break;
      }
      kicked = false;
      let report: DrainReport | undefined;
      try {
        report = await drainJobs({
          db: o.db,
          handlers: o.handlers,
          workerId,
          log: o.log,
          signal: stopper.signal,
        });
        if (report.claimed > 0) o.log.info('drained jobs', { ...report, errors: report.errors.length });
      } catch (e) {
        // The database may be briefly away; the next tick tries again.
        o.log.warn('drain failed', { error: errorText(e) });
      }
      // More due work than one batch took: go again at once.
      if (report !== undefined && report.claimed > 0 && report.remaining > 0) kicked = true;
    }
    for (const w of idleWaiters) w();
    idleWaiters = [];
  };
  const done = run();

  return {
    kick() {
      kicked = true;
      wake?.();
    },
    idle() {
      if (stopper.signal.aborted) return done;
      if (sleeping && !kicked) return Promise.resolve();
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
      });
    },
    async stop() {
      stopper.abort();
      wake?.();
      await done;
    },
  };
}
