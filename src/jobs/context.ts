import type { ToolJobs } from '../contract/define.ts';
import type { Db } from '../db/types.ts';
import type { Logger } from '../log.ts';
import { drainJobs, emptyDrainReport } from './drain.ts';
import type { JobHandler } from './queue.ts';

/** The `jobs` member of one request's ToolContext: kicks are passed on once per request. */
export function requestJobs(o: {
  db: Db;
  handlers: Readonly<Record<string, JobHandler>>;
  log: Logger;
  kick?: () => void;
  workerId: string;
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
