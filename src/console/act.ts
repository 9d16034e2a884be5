// The owner's actions in the console run as tool calls through the kernel, exactly as an agent's would
// (grant, decoding, gate, idempotency, audit), with the owner principal: `agent` is `owner:<name>` and
// `ctx.owner` is set, which only this module does.
import type { Context } from 'hono';
import { noProgress, type ToolContext } from '../contract/define.ts';
import type { Envelope } from '../contract/envelope.ts';
import { errorEnvelope } from '../contract/envelope.ts';
import { callTool } from '../contract/execute.ts';
import type { Registry } from '../contract/registry.ts';
import type { OwnerRow } from '../db/schema/owners.ts';
import type { RequestServices } from '../http/services.ts';
import { requestJobs } from '../jobs/context.ts';
import type { JobHandler } from '../jobs/queue.ts';
import type { Logger } from '../log.ts';
import { ownerPrincipal } from '../owner/accounts.ts';

export interface ActOptions {
  registry: Registry;
  env: Readonly<Record<string, string | undefined>>;
  jobHandlers: Readonly<Record<string, JobHandler>>;
  kick?(c: Context): void;
  waitUntil?(c: Context, work: Promise<unknown>): void;
  now(): Date;
  checkOutputs: boolean;
}

/** What the owner may call: the tools only an owner calls, and every owner-gated tool (the owner is the gate). */
export function ownerGrants(registry: Registry): ReadonlySet<string> {
  return new Set(
    registry.tools.filter((t) => t.def.ownerOnly === true || t.def.ownerGate).map((t) => t.def.name),
  );
}

/** The owner as a caller of tools: the owner's grants and the one call path every console action takes. */
export type OwnerActor = ReturnType<typeof ownerActor>;

export function ownerActor(o: ActOptions) {
  const grants = ownerGrants(o.registry);
  return {
    grants,
    async act(
      c: Context,
      who: { owner: OwnerRow; services: RequestServices; log: Logger; requestId: string },
      tool: string,
      args: Record<string, unknown>,
    ): Promise<Envelope> {
      const registered = o.registry.get(tool);
      if (registered === undefined || !grants.has(tool)) {
        return errorEnvelope('not_found', `The console has no action ${tool} here`);
      }
      const agent = ownerPrincipal(who.owner.name);
      const ctx: ToolContext = {
        db: who.services.db,
        kv: who.services.kv,
        agent,
        owner: { id: who.owner.id, name: who.owner.name },
        requestId: who.requestId,
        now: o.now,
        env: o.env,
        log: who.log,
        progress: noProgress,
        holds: (name) => grants.has(name),
        waitUntil: (work) => o.waitUntil?.(c, work),
        jobs: requestJobs({
          db: who.services.db,
          handlers: o.jobHandlers,
          log: who.log,
          kick: () => o.kick?.(c),
          workerId: `console-${who.requestId}`,
          now: o.now,
        }),
      };
      return callTool({ tool: registered, args, ctx, grants, checkOutputs: o.checkOutputs });
    },
  };
}
