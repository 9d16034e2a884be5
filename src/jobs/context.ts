import type { ToolJobs } from '../contract/define.ts';
import type { Db } from '../db/types.ts';
import type { Logger } from '../log.ts';
import { type DrainReport, drainJobs, emptyDrainReport } from './drain.ts';
import type { JobHandler } from './queue.ts';

/** One bounded drain as a runtime runs it: here, or elsewhere (the MCP Worker hands it to the extraction Worker). */
export interface DrainRun {
  maxJobs?: number | undefined;
  budgetMs?: number | undefined;
  /** Only these kinds; all handled kinds when omitted. */
  kinds?: readonly string[] | undefined;
  workerId: string;
}
export type Drainer = (run: DrainRun) => Promise<DrainReport>;

/** The `jobs` member of one request's ToolContext: kicks are passed on once per request. */
export function requestJobs(o: {
  db: Db;
  handlers: Readonly<Record<string, JobHandler>>;
  log: Logger;
  kick?: () => void;
  workerId: string;
  /** Runs drains elsewhere instead of on this request's database (the MCP Worker). */
  drain?: Drainer | undefined;
  /** The server's clock, so jobs run by a tool's drain are stamped as the tool's own writes are. */
  now?: (() => Date) | undefined;
}): ToolJobs {
  let kicked = false;
  const kinds = Object.keys(o.handlers);
  return {
    kinds,
    kick() {
      if (kicked) return;
      kicked = true;
      o.kick?.();
    },
    drain(options = {}) {
      if (o.drain !== undefined) {
        return o.drain({ maxJobs: options.maxJobs, kinds: options.kinds, workerId: o.workerId });
      }
      const wanted = options.kinds ?? kinds;
      const handlers = Object.fromEntries(
        Object.entries(o.handlers).filter(([kind]) => wanted.includes(kind)),
      ) as Record<string, JobHandler>;
      return drainJobs({
        db: o.db,
        handlers,
        maxJobs: options.maxJobs,
        workerId: o.workerId,
        log: o.log,
        now: o.now,
      });
    },
  };
}

/** A ToolJobs that does nothing: for contexts without a queue runtime (direct kernel calls in tests). */
export const noJobs: ToolJobs = {
  kinds: [],
  kick() {},
  drain: () => Promise.resolve(emptyDrainReport()),
};
