/**
 * A local stand-in for the few Neon API (v2) calls `npm run preview` makes, written from Neon's public API
 * reference: the paths and the fields the script reads, `{ code, message }` error bodies with the HTTP status,
 * 401 without the right bearer key, 404 for an unknown project or branch, 400 for a branch name that is empty or
 * longer than 256 characters, 409 for a name already taken, 423 while the project has an operation running
 * (`lockedOnce` answers the first POST with it). Each branch's database is a real database on the local
 * PostgreSQL, so the preview's migrations and tokens really land somewhere; deleting the branch drops it.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

interface Branch {
  id: string;
  name: string;
  parent_id: string;
  created_at: string;
  database: string;
}

export interface NeonStandIn {
  url: string;
  apiKey: string;
  projectId: string;
  /** Every request, as "METHOD /path?query". */
  requests: string[];
  /** The bodies of POSTs, parsed. */
  bodies: unknown[];
  branches: Map<string, Branch>;
  close(): Promise<void>;
}

export async function startNeonStandIn(options: {
  postgresUrl: string;
  lockedOnce?: boolean;
}): Promise<NeonStandIn> {
  const apiKey = `neon-test-${randomBytes(8).toString('hex')}`;
  const projectId = `proj-${randomBytes(4).toString('hex')}`;
  const requests: string[] = [];
  const bodies: unknown[] = [];
  const branches = new Map<string, Branch>();
  // Operations finish on their second poll: the script must wait for them.
  const operations = new Map<string, number>();
  let locked = options.lockedOnce ?? false;
  const server = new URL(options.postgresUrl);
  const dbUrl = (name: string) => {
    const u = new URL(server);
    u.pathname = `/${name}`;
    return u.toString();
  };
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: server.toString() });
    c.on('error', () => {});
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  const operation = () => {
    const id = crypto.randomUUID();
    operations.set(id, 0);
    return { id, status: 'running', action: 'create_branch' };
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, code: string, message: string) =>
    send(res, status, { code, message });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://standin');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return fail(res, 401, '', 'authentication required');
    const base = `/projects/${projectId}`;
    if (!url.pathname.startsWith(`/api/v2${base}/`)) return fail(res, 404, 'NOT_FOUND', 'project not found');
    const path = url.pathname.slice(`/api/v2${base}`.length);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body =
      chunks.length > 0
        ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>)
        : {};

    if (req.method === 'GET' && path === '/branches') {
      const search = url.searchParams.get('search') ?? '';
      const list = [...branches.values()].filter((b) => b.name.includes(search) || b.id.includes(search));
      return send(res, 200, { branches: list.map(({ database: _, ...b }) => b) });
    }
    if (req.method === 'POST' && path === '/branches') {
      bodies.push(body);
      if (locked) {
        locked = false;
        return fail(
          res,
          423,
          'LOCKED',
          'project already has running conflicting operations, scheduling of new ones is prohibited',
        );
      }
      const name = String((body.branch as { name?: unknown } | undefined)?.name ?? '');
      if (name === '' || name.length > 256) return fail(res, 400, 'BAD_REQUEST', 'invalid branch name');
      if ([...branches.values()].some((b) => b.name === name))
        return fail(res, 409, 'CONFLICT', `branch with name "${name}" already exists`);
      const id = `br-${randomBytes(6).toString('hex')}`;
      const database = `neon_standin_${id.replace('-', '_')}`;
      await admin(`create database "${database}"`);
      const branch: Branch = {
        id,
        name,
        parent_id: 'br-main',
        created_at: new Date().toISOString(),
        database,
      };
      branches.set(id, branch);
      const endpoint = { id: `ep-${randomBytes(4).toString('hex')}`, branch_id: id, type: 'read_write' };
      return send(res, 201, {
        branch: { id, name, parent_id: branch.parent_id, created_at: branch.created_at },
        endpoints: (body.endpoints as unknown[] | undefined)?.length ? [endpoint] : [],
        operations: [operation(), operation()],
        roles: [{ branch_id: id, name: 'neondb_owner' }],
        databases: [{ branch_id: id, name: 'neondb', owner_name: 'neondb_owner' }],
        connection_uris: [
          {
            connection_uri: dbUrl(database),
            connection_parameters: { database: 'neondb', role: 'neondb_owner' },
          },
        ],
      });
    }
    const databases = /^\/branches\/([^/]+)\/databases$/.exec(path);
    if (req.method === 'GET' && databases) {
      const branch = branches.get(databases[1] as string);
      if (branch === undefined) return fail(res, 404, 'NOT_FOUND', 'branch not found');
      return send(res, 200, {
        databases: [{ id: 1, branch_id: branch.id, name: 'neondb', owner_name: 'neondb_owner' }],
      });
    }
    if (req.method === 'GET' && path === '/connection_uri') {
      const q = url.searchParams;
      if (!q.get('database_name') || !q.get('role_name'))
        return fail(res, 400, 'BAD_REQUEST', 'database_name and role_name are required');
      const branch = branches.get(q.get('branch_id') ?? '');
      if (branch === undefined) return fail(res, 404, 'NOT_FOUND', 'branch not found');
      return send(res, 200, { uri: dbUrl(branch.database) });
    }
    const one = /^\/branches\/([^/]+)$/.exec(path);
    if (req.method === 'DELETE' && one) {
      const branch = branches.get(one[1] as string);
      if (branch === undefined) return fail(res, 404, 'NOT_FOUND', 'branch not found');
      branches.delete(branch.id);
      await admin(`drop database if exists "${branch.database}" with (force)`);
      return send(res, 200, {
        branch: { id: branch.id, name: branch.name },
        operations: [{ ...operation(), action: 'delete_timeline' }],
      });
    }
    const op = /^\/operations\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && op) {
      const polls = operations.get(op[1] as string);
      if (polls === undefined) return fail(res, 404, 'NOT_FOUND', 'operation not found');
      operations.set(op[1] as string, polls + 1);
      return send(res, 200, { operation: { id: op[1], status: polls >= 1 ? 'finished' : 'running' } });
    }
    return fail(res, 404, 'NOT_FOUND', `no route ${req.method} ${url.pathname}`);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => fail(res, 500, 'INTERNAL', String(e)));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v2`,
    apiKey,
    projectId,
    requests,
    bodies,
    branches,
    async close() {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      for (const b of branches.values())
        await admin(`drop database if exists "${b.database}" with (force)`).catch(() => {});
    },
  };
}
