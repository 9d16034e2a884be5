// GET /admin/backup (Node, embedded database only): `npm run backup` asks the running server for a snapshot,
// since a second process must not open the same PGlite directory. Guarded by the admin secret in
// DATA_DIR/server.json, like /admin/tokens.
import type { PGlite } from '@electric-sql/pglite';
import type { Hono } from 'hono';
import { constantTimeEqual } from '../../contract/hash.ts';
import { snapshotPglite } from '../../db/backup.ts';
import type { AppEnv } from '../context.ts';
import { bearerToken, challenge } from '../middleware/guard.ts';

export function mountBackupAdmin(app: Hono<AppEnv>, o: { client: PGlite; secret: string }): void {
  app.get('/admin/backup', async (c) => {
    if (!constantTimeEqual(bearerToken(c) ?? '', o.secret)) {
      return challenge(c, 'The admin secret is not valid.', 'chambers-admin', 'Use npm run backup.');
    }
    const blob = await snapshotPglite(o.client);
    return new Response(blob.stream(), {
      headers: {
        'Content-Type': 'application/gzip',
        'Content-Length': String(blob.size),
        'Cache-Control': 'no-store',
      },
    });
  });
}
