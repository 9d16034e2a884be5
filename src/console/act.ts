// The owner's actions in the console run as tool calls through the kernel, exactly as an agent's would
// (grant, decoding, gate, idempotency, audit), with the owner principal: `agent` is `owner:<name>` and
// `ctx.owner` is set, which only this module does.
import type { Context } from 'hono';
import type { Envelope } from '../contract/envelope.ts';
import { errorEnvelope } from '../contract/envelope.ts';
import type { Registry } from '../contract/registry.ts';
import type { OwnerRow } from '../db/schema/owners.ts';
import type { AppEnv } from '../http/context.ts';
import { type Runtime, toolContextFor } from '../http/runtime.ts';
import { callAs } from '../mcp/state.ts';
import { ownerPrincipal } from '../owner/accounts.ts';

export interface ActOptions {
  registry: Registry;
  runtime: Runtime;
  checkOutputs: boolean;
}

/**
 * Tools the chair calls in her own name though no gate asks for her: her remarks on a draft are hers to
 * record (the ceo agent records those she gives it).
 */
export const chairTools: readonly string[] = ['feedback_record'];

/**
 * What the owner may call: the tools only an owner calls, every owner-gated tool (the owner is the gate), and
 * the chair's own tools.
 */
export function ownerGrants(registry: Registry): ReadonlySet<string> {
  return new Set(
    registry.tools
      .filter((t) => t.def.ownerOnly === true || t.def.ownerGate || chairTools.includes(t.def.name))
      .map((t) => t.def.name),
  );
}

/** The owner as a caller of tools: the owner's grants and the one call path every console action takes. */
export type OwnerActor = ReturnType<typeof ownerActor>;

const noHolders: ReadonlyMap<string, readonly string[]> = new Map();

export function ownerActor(o: ActOptions) {
  const grants = ownerGrants(o.registry);
  return {
    grants,
    /** Calls `tool` as `owner`, on the request's stores (`c` is past the console's store middleware). */
    async act<E extends AppEnv>(
      c: Context<E>,
      owner: OwnerRow,
      tool: string,
      args: Record<string, unknown>,
    ): Promise<Envelope> {
      const registered = o.registry.get(tool);
      if (registered === undefined || !grants.has(tool)) {
        return errorEnvelope('not_found', `The console has no action ${tool} here`);
      }
      const agent = ownerPrincipal(owner.name);
      const ctx = toolContextFor(o.runtime, c, {
        agent,
        grants,
        owner: { id: owner.id, name: owner.name },
        workerPrefix: 'console',
      });
      return callAs({ agent, grants, holders: noHolders, ctx }, registered, args, {
        checkOutputs: o.checkOutputs,
      });
    },
  };
}
