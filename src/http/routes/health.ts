// GET /healthz, without a token: whether the database and the key-value store answer. A report, not a
// refusal: 200 when both are up, 503 when either is down, always this shape. On Node it also names the
// database by a fingerprint (src/db/ensure.ts databaseTarget), without any secret.
import type { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import type { Runtime } from '../runtime.ts';

export function mountHealth(
  app: Hono<AppEnv>,
  o: { runtime: Pick<Runtime, 'services'>; version: string; databaseId?: string | undefined },
): void {
  app.get('/healthz', async (c) => {
    const services = await o.runtime.services(c);
    const check = async (f: () => Promise<unknown>) => {
      try {
        await f();
        return 'up' as const;
      } catch {
        return 'down' as const;
      }
    };
    try {
      const [db, kv] = await Promise.all([
        check(() => services.db.execute('select 1')),
        check(() => services.kv.ping()),
      ]);
      const healthy = db === 'up' && kv === 'up';
      return c.json(
        {
          ok: healthy,
          db,
          kv: { status: kv, kind: services.kv.kind },
          version: o.version,
          // Which database this server uses, as a fingerprint: `npm run token` compares it with its own.
          ...(o.databaseId === undefined ? {} : { database: o.databaseId }),
        },
        healthy ? 200 : 503,
      );
    } finally {
      await services.release?.();
    }
  });
}
