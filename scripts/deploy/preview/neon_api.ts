// The few calls of Neon's HTTP API (v2) that previews need, written from Neon's public API reference:
//   GET    /projects/{project_id}/branches?search=<name>        → { branches: [{ id, name, parent_id, ... }] }
//   POST   /projects/{project_id}/branches                      body { branch: { name }, endpoints: [{ type: "read_write" }] }
//                                                               → 201 { branch, endpoints, operations, databases, roles, connection_uris }
//   GET    /projects/{project_id}/branches/{branch_id}/databases → { databases: [{ name, owner_name, ... }] }
//   GET    /projects/{project_id}/connection_uri?branch_id=&database_name=&role_name=  → { uri }
//   DELETE /projects/{project_id}/branches/{branch_id}          → { branch, operations }
//   GET    /projects/{project_id}/operations/{operation_id}     → { operation: { id, status, ... } }
// Errors are a JSON body { code, message } with the HTTP status; 423 (the project has operations running) and
// 429 (rate limited) are retried with a growing pause. Authorization: Bearer NEON_API_KEY.
export const NEON_API_URL = 'https://console.neon.tech/api/v2';

export interface NeonBranch {
  id: string;
  name: string;
  parent_id?: string;
  created_at?: string;
}
interface NeonOperation {
  id: string;
  status: string;
}

export class NeonApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(`Neon API ${status}${code ? ` ${code}` : ''}: ${message}`);
    this.name = 'NeonApiError';
    this.status = status;
    this.code = code;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface NeonApiOptions {
  apiKey: string;
  projectId: string;
  /** NEON_API_URL: the API's base (tests point it at a local stand-in). */
  baseUrl?: string;
  /** Pause unit between retries and operation polls (tests shorten it). */
  pollMs?: number;
}

export function neonApi(o: NeonApiOptions) {
  const base = `${(o.baseUrl ?? NEON_API_URL).replace(/\/$/, '')}/projects/${encodeURIComponent(o.projectId)}`;
  const pollMs = o.pollMs ?? 1_000;

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${o.apiKey}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      const json = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
      if (res.ok) return json as T;
      if ((res.status === 423 || res.status === 429) && attempt < 10) {
        await sleep(pollMs * attempt);
        continue;
      }
      throw new NeonApiError(res.status, String(json.code ?? ''), String(json.message ?? text.slice(0, 300)));
    }
  }

  /** Waits until every operation finished; a failed one is an error. */
  async function settle(operations: readonly NeonOperation[] | undefined): Promise<void> {
    for (const op of operations ?? []) {
      for (let i = 0; ; i++) {
        const { operation } = await call<{ operation: NeonOperation }>('GET', `/operations/${op.id}`);
        if (operation.status === 'finished' || operation.status === 'skipped') break;
        if (operation.status === 'failed' || operation.status === 'error' || operation.status === 'cancelled')
          throw new NeonApiError(500, 'operation_failed', `operation ${op.id} ${operation.status}`);
        if (i > 300) throw new NeonApiError(504, 'timeout', `operation ${op.id} still ${operation.status}`);
        await sleep(pollMs);
      }
    }
  }

  return {
    /** The branch named exactly `name`, or null (search matches parts of names, so the match is checked). */
    async findBranch(name: string): Promise<NeonBranch | null> {
      const { branches } = await call<{ branches: NeonBranch[] }>(
        'GET',
        `/branches?search=${encodeURIComponent(name)}`,
      );
      return branches.find((b) => b.name === name) ?? null;
    },
    /** Branches whose names start with `prefix`. */
    async listBranches(prefix: string): Promise<NeonBranch[]> {
      const { branches } = await call<{ branches: NeonBranch[] }>(
        'GET',
        `/branches?search=${encodeURIComponent(prefix)}`,
      );
      return branches.filter((b) => b.name.startsWith(prefix));
    },
    /** A new branch of the default branch with a read-write compute; resolves once its operations finished. */
    async createBranch(name: string): Promise<{ branch: NeonBranch; uri: string | null }> {
      const created = await call<{
        branch: NeonBranch;
        operations?: NeonOperation[];
        connection_uris?: { connection_uri: string }[];
      }>('POST', '/branches', { branch: { name }, endpoints: [{ type: 'read_write' }] });
      await settle(created.operations);
      return { branch: created.branch, uri: created.connection_uris?.[0]?.connection_uri ?? null };
    },
    /** The connection URI of the branch's first database, as its owner. */
    async connectionUri(branchId: string): Promise<string> {
      const { databases } = await call<{ databases: { name: string; owner_name: string }[] }>(
        'GET',
        `/branches/${branchId}/databases`,
      );
      const db = databases[0];
      if (db === undefined) throw new NeonApiError(404, 'not_found', `branch ${branchId} has no database`);
      const q = new URLSearchParams({
        branch_id: branchId,
        database_name: db.name,
        role_name: db.owner_name,
      });
      return (await call<{ uri: string }>('GET', `/connection_uri?${q}`)).uri;
    },
    async deleteBranch(branchId: string): Promise<void> {
      const deleted = await call<{ operations?: NeonOperation[] }>('DELETE', `/branches/${branchId}`);
      await settle(deleted.operations);
    },
  };
}

export type NeonApi = ReturnType<typeof neonApi>;
