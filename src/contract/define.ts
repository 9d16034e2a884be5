import type * as z from 'zod';
import type { Db } from '../db/types.ts';
import type { DrainReport } from '../jobs/drain.ts';
import type { KvStore } from '../kv/types.ts';
import type { Logger } from '../log.ts';
import type { ToolResult } from './envelope.ts';
import type { OwnerAck } from './gates.ts';
import type { CursorKey, PageRequest, PageSpec } from './limits.ts';

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** The durable queue as a tool sees it (enqueue itself is `enqueueJob` inside the tool's transaction). */
export interface ToolJobs {
  /** Asks the runtime to drain soon; call it after the transaction that enqueued has committed. */
  kick(): void;
  /** Drains one bounded batch now on this request's database, with the runtime's handlers. */
  drain(options?: { maxJobs?: number; kinds?: readonly string[] }): Promise<DrainReport>;
  /** The job kinds this runtime has handlers for. */
  readonly kinds: readonly string[];
}

/** The request-scoped context a tool receives; nothing in it outlives the request. */
export interface ToolContext {
  db: Db;
  kv: KvStore;
  /** The agent the bearer token belongs to. */
  agent: string;
  requestId: string;
  now(): Date;
  log: Logger;
  /** Reports progress on long work; a no-op when the caller sent no progressToken. */
  progress(update: ProgressUpdate): Promise<void>;
  jobs: ToolJobs;
  /** Whether the calling agent is granted a tool: hints and next actions name only tools it holds. */
  holds(tool: string): boolean;
  /**
   * The owner principal, when an owner acts in the console (then `agent` is `owner:<name>`). Only the
   * console sets it; an agent's call never has it, whatever its arguments say.
   */
  owner?: { id: string; name: string };
}

/** The `progress` of a call whose caller asked for none (the plain JSON route, MCP without a progressToken). */
export const noProgress: ToolContext['progress'] = async () => {};

/**
 * How a tool changes state (the MCP annotations are derived from it, docs/contract.md "Declared behaviour"):
 * - false: read-only;
 * - 'write': creates or updates;
 * - 'destructive': deletes or revokes.
 */
export type Mutation = false | 'write' | 'destructive';

export type InputShape = z.ZodRawShape;

/** The decoded arguments a tool's `run` receives (paging and gate parameters are the kernel's). */
export type ToolInput<S extends InputShape> = z.output<z.ZodObject<S>>;

/** What `run` returns: the data (status ok, or empty for a page without items), or `ok()` / `empty()` of it. */
export type RunResult<O extends z.ZodType> = z.input<O> | ToolResult<z.input<O>>;

export interface RunArgs<S extends InputShape, K extends CursorKey> {
  ctx: ToolContext;
  input: ToolInput<S>;
  /** The owner's acknowledgement as given, for owner-gated tools (null otherwise). */
  gate: OwnerAck | null;
  /** The page to serve, for tools that declare `pages` (bounded limit, decoded cursor; undefined otherwise). */
  page: [K] extends [never] ? undefined : PageRequest<K>;
}

export interface ToolDefinition<
  S extends InputShape = InputShape,
  O extends z.ZodType = z.ZodType,
  K extends CursorKey = never,
> {
  /** `<family>_[<object>_]<verb>` (docs/contract.md "Names"); equals the file name under functions/<family>/. */
  name: string;
  /** Written for a model: what it does, when to use it instead of its neighbours, what it returns. */
  description: string;
  /** Human-readable title for clients that show one. */
  title?: string;
  /** Parameters; every field carries `.describe()` and bounds. The kernel adds gate and paging fields itself. */
  input: S;
  /**
   * The shape of `data` in a successful result (an object). It is advertised inside the envelope as the
   * tool's MCP outputSchema, and the test suite checks every result against it. Every array in it is
   * bounded (`.max()`), except a paging tool's `items`, which the kernel bounds.
   */
  output: O;
  mutates: Mutation;
  /**
   * The natural key (docs/contract.md "Retries"), required when `mutates`: `of` derives it from the
   * arguments deterministically, `describe` says in words what it is (docs/tools.md shows it). Two calls
   * with the same key are the same operation: the second replays the first.
   */
  idempotencyKey?: { describe: string; of: (input: ToolInput<S>) => string };
  /**
   * Checks that need no I/O and must run before the idempotency key is derived and the arguments are
   * hashed: size caps judged from a string's length, mutually exclusive fields. Throws ToolError.
   */
  precheck?: (input: ToolInput<S>) => void;
  /**
   * The operation sets values, so repeating it is harmless by itself (an update to given fields). The
   * request layer then only turns a concurrent duplicate into `in_progress` and never replays a stored
   * result: a replay of "set B" after a later "set C" would answer with a state that no longer exists.
   */
  setSemantics?: boolean;
  /**
   * The owner gate (docs/contract.md "Grants and gates"). The kernel adds the gate's parameters and opens it
   * per OWNER_GATE: in approval mode (`approval_id`, `reason`) only with the owner's approval of this very call
   * from the console, in ack mode (`owner_ack`, `reason`) on the agent's word. A function makes the gate
   * conditional on the arguments; what was given is audited either way. `gate.reason` is the owner's reason.
   */
  ownerGate?: boolean | ((input: ToolInput<S>) => boolean);
  /**
   * Only the owner principal calls it (the console): no agent may be granted it (the server refuses to start),
   * and the kernel refuses any call without `ctx.owner`. Such a tool that takes `approval_id` has it recorded
   * in its audit row, which links the owner's decision to the request.
   */
  ownerOnly?: boolean;
  /**
   * The area of legal work the tool's calls are, e.g. "drafting" (docs/governance.md): its activity label is
   * `<activity>:<tool name>`, checked against a case mission's scope when GOVERNANCE_ENFORCE is on. Unset, the
   * family's area (src/governance/enforce.ts FAMILY_AREAS), or the family itself when it has none.
   */
  activity?: string;
  /** An `*_extract` tool names the tool that reads what it extracted. */
  readCounterpart?: string;
  /**
   * The tool takes file content, so an agent granted it may send request bodies up to the upload cap
   * (`MAX_UPLOAD_BODY_BYTES`) instead of `MAX_BODY_BYTES`; the tool caps the decoded file itself.
   */
  takesUpload?: boolean;
  /**
   * The tool returns a page of a list (docs/contract.md "Lists"). The kernel adds `limit` and `cursor`,
   * clamps the limit, decodes the cursor (bound to this tool and to the other arguments) into a key of
   * this shape, and hands `run` a `page` whose `from` / `of` build `items`, `limit` and `next_cursor`.
   */
  pages?: PageSpec<K>;
  /** Returns data or `ok()` / `empty()` to choose status and message; throws ToolError. */
  run(args: RunArgs<S, K>): Promise<RunResult<O>>;
}

/** Declares a tool; the identity function that gives the definition its types. */
export function defineTool<S extends InputShape, O extends z.ZodType, K extends CursorKey = never>(
  definition: ToolDefinition<S, O, K>,
): ToolDefinition<S, O, K> {
  return definition;
}

/** A tool with its types erased, as the registry holds them. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds tools of every input, output and key shape; each is typed at its definition.
export type AnyTool = ToolDefinition<any, any, any>;

/** The `data` of a tool's successful result, for callers and tests: `ToolData<typeof case_get>`. */
// biome-ignore lint/suspicious/noExplicitAny: matches a definition of any input and key shape.
export type ToolData<T> = T extends ToolDefinition<any, infer O, any> ? z.output<O> : never;
