// POST /admin/owners (Node, embedded database only): `npm run owner` hands its command to the running server
// that holds DATA_DIR, as `npm run token` does (admin_tokens.ts), guarded by the same secret.
import type { Hono } from 'hono';
import { errorEnvelope } from '../../contract/envelope.ts';
import { constantTimeEqual } from '../../contract/hash.ts';
import type { Db } from '../../db/types.ts';
import { OWNER_USAGE, OwnerError, parseOwnerCommand, runOwnerCommand } from '../../owner/commands.ts';
import type { AppEnv } from '../context.ts';
import { refuse } from '../errors.ts';
import { bearerToken, challenge } from '../middleware/guard.ts';

export function mountOwnerAdmin(
  app: Hono<AppEnv>,
  o: { db: Db; secret: string; publicBase: string; now(): Date },
): void {
  app.post('/admin/owners', async (c) => {
    if (!constantTimeEqual(bearerToken(c) ?? '', o.secret)) {
      return challenge(c, 'The admin secret is not valid.', 'chambers-admin', 'Use npm run owner.');
    }
    const body = (await c.req.json().catch(() => ({}))) as { op?: unknown; name?: unknown };
    const command = parseOwnerCommand([body.op, body.name].filter((v) => typeof v === 'string'));
    if (command === null) return refuse(c, errorEnvelope('invalid_args', OWNER_USAGE));
    try {
      return c.json({ output: await runOwnerCommand(o.db, command, o.publicBase, o.now()) });
    } catch (e) {
      if (!(e instanceof OwnerError)) throw e;
      return refuse(c, errorEnvelope('invalid_args', e.message));
    }
  });
}
