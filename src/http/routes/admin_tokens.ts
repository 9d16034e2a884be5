// POST /admin/tokens (Node, embedded database only): `npm run token` hands its command to the running server
// that holds DATA_DIR, since a second process must not open the same PGlite directory. Guarded by a secret
// that the server writes into DATA_DIR/server.json (readable by the directory's owner only).
import type { Hono } from 'hono';
import { AGENT_NAMES } from '../../agents/grants.ts';
import { runTokenCommand, type TokenCommand, tokenCommandProblem } from '../../auth/admin.ts';
import { errorEnvelope } from '../../contract/envelope.ts';
import { constantTimeEqual } from '../../contract/hash.ts';
import type { Db } from '../../db/types.ts';
import type { AppEnv } from '../context.ts';
import { refuse } from '../errors.ts';
import { bearerToken, challenge } from '../middleware/guard.ts';

/** The body as sent: `{agent}` alone (older clients) is a mint. */
function commandOf(body: Record<string, unknown>): TokenCommand | string {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const action = str(body.action) ?? 'mint';
  if (action === 'list') return { action };
  if (action === 'revoke') return { action, target: str(body.target) ?? '' };
  if (action !== 'mint') return `unknown action "${action}" (mint, list, revoke)`;
  const expires = body.expires_in_ms;
  return {
    action,
    agent: str(body.agent) ?? '',
    ...(typeof expires === 'number' ? { expiresInMs: expires } : {}),
    ...(str(body.label) === undefined ? {} : { label: str(body.label) as string }),
  };
}

export function mountTokenAdmin(app: Hono<AppEnv>, o: { db: Db; secret: string; now(): Date }): void {
  app.post('/admin/tokens', async (c) => {
    // Refusals in the envelope's error shape, like every other route (src/http/errors.ts).
    if (!constantTimeEqual(bearerToken(c) ?? '', o.secret)) {
      return challenge(c, 'The admin secret is not valid.', 'chambers-admin', 'Use npm run token.');
    }
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    const command = commandOf(body && typeof body === 'object' ? body : {});
    const problem = typeof command === 'string' ? command : tokenCommandProblem(command);
    if (problem !== null || typeof command === 'string') {
      return refuse(
        c,
        errorEnvelope('invalid_args', problem ?? 'bad command', {
          details: { agents: [...AGENT_NAMES] },
        }),
      );
    }
    return c.json(await runTokenCommand(o.db, command, o.now()));
  });
}
