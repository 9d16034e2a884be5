import type { z } from 'zod';
import type { Db } from '../db/types.ts';
import type { DrainReport } from '../jobs/queue.ts';
import type { KvStore } from '../kv/types.ts';
import type { OwnerAck } from './gates.ts';

/** What a tool may log; the kernel adds agent, tool and request id to every line. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

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
  env: Readonly<Record<string, string | undefined>>;
  log: Logger;
  /** Reports progress on long work; a no-op when the caller sent no progressToken. */
  progress(update: ProgressUpdate): Promise<void>;
  jobs: ToolJobs;
  /** Keeps background work alive after the response (Workers `waitUntil`; awaited at shutdown on Node). */
  waitUntil(work: Promise<unknown>): void;
}

/** The `progress` of a call whose caller asked for none (the plain JSON route, MCP without a progressToken). */
export const noProgress: ToolContext['progress'] = async () => {};

/**
 * How a tool changes state (C8 annotations are derived from it):
 * - false: read-only;
 * - 'write': creates or updates;
 * - 'destructive': deletes or revokes.
 */
export type Mutation = false | 'write' | 'destructive';

export type InputShape = z.ZodRawShape;

export interface ToolDefinition<S extends InputShape = InputShape> {
  /** C2: `<family>_[<object>_]<verb>`; equals the file name under functions/<family>/. */
  name: string;
  /** Written for a model: what it does, when to use it instead of its neighbours, what it returns. */
  description: string;
  /** Human-readable title for clients that show one. */
  title?: string;
  /** Parameters; every field carries `.describe()` and bounds. The kernel adds gate fields itself. */
  input: S;
  mutates: Mutation;
  /**
   * C4: the deterministic key derived from the arguments (the natural key). Required when `mutates`.
   * Two calls with the same key are the same operation: the second replays the first's result.
   */
  idempotencyKey?: (input: z.output<z.ZodObject<S>>) => string;
  /**
   * Checks that need no I/O and must run before the idempotency key is derived and the arguments are
   * hashed: size caps judged from a string's length, mutually exclusive fields. Throws ToolError.
   */
  precheck?: (input: z.output<z.ZodObject<S>>) => void;
  /**
   * The operation sets values, so repeating it is harmless by itself (an update to given fields). The
   * request layer then only turns a concurrent duplicate into `in_progress` and never replays a stored
   * result: a replay of "set B" after a later "set C" would answer with a state that no longer exists.
   */
  setSemantics?: boolean;
  /**
   * C7: the owner gate. The kernel adds `owner_ack` and `reason` parameters and refuses the call with
   * `owner_gate_required` unless `owner_ack` is true and `reason` is non-empty. A function makes the gate
   * conditional on the arguments (e.g. only an abandoning close); the acknowledgement given is audited either way.
   */
  ownerGate?: boolean | ((input: z.output<z.ZodObject<S>>) => boolean);
  /** C5: an `*_extract` tool names the tool that reads what it extracted. */
  readCounterpart?: string;
  /**
   * C6: the tool takes file content, so an agent granted it may send request bodies up to the upload cap
   * (`MAX_UPLOAD_BODY_BYTES`) instead of `MAX_BODY_BYTES`; the tool caps the decoded file itself.
   */
  takesUpload?: boolean;
  /** Returns plain data (status ok) or `ok()` / `empty()` to choose status and message; throws ToolError. */
  run(args: { ctx: ToolContext; input: z.output<z.ZodObject<S>>; gate: OwnerAck | null }): Promise<unknown>;
}

/** Declares a tool; the identity function that gives the definition its types. */
export function defineTool<S extends InputShape>(definition: ToolDefinition<S>): ToolDefinition<S> {
  return definition;
}

/** A tool with its types erased, as the registry holds them. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds tools of every input shape; each is typed at its definition.
export type AnyTool = ToolDefinition<any>;
