// The token commands of `npm run token` (mint, list, revoke), as one function over a database: the CLI runs
// them itself, or hands them to the running `npm start` that holds the embedded database (POST /admin/tokens).
import { AGENT_NAMES } from '../agents/grants.ts';
import type { Db } from '../db/types.ts';
import { listTokens, mintTokenWithId, revokeTokens } from './tokens.ts';

export type TokenCommand =
  | { action: 'mint'; agent: string; expiresInMs?: number; label?: string }
  | { action: 'list' }
  | { action: 'revoke'; target: string };

/** A token as listed: ids and dates, never the token or its hash. */
export interface ListedToken {
  id: string;
  agent: string;
  label: string | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

export type TokenCommandResult =
  | { action: 'mint'; token: string; id: string; expires_at: string | null }
  | { action: 'list'; tokens: ListedToken[] }
  | { action: 'revoke'; revoked: string[] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isAgent = (name: string) => (AGENT_NAMES as readonly string[]).includes(name);

/** The problem with a command, in words for the CLI and the admin route; null when it is well-formed. */
export function tokenCommandProblem(command: TokenCommand): string | null {
  if (command.action === 'mint') {
    if (!isAgent(command.agent))
      return `the agent must be one of ${AGENT_NAMES.join(', ')}, got "${command.agent}"`;
    if (command.expiresInMs !== undefined && !(command.expiresInMs > 0))
      return 'the expiry must be in the future';
  }
  if (command.action === 'revoke' && !UUID.test(command.target) && !isAgent(command.target))
    return `revoke takes a token id (from token list) or an agent (${AGENT_NAMES.join(', ')}), got "${command.target}"`;
  return null;
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export async function runTokenCommand(
  db: Db,
  command: TokenCommand,
  now = new Date(),
): Promise<TokenCommandResult> {
  const problem = tokenCommandProblem(command);
  if (problem !== null) throw new RangeError(problem);
  switch (command.action) {
    case 'mint': {
      const expiresAt =
        command.expiresInMs === undefined ? undefined : new Date(now.getTime() + command.expiresInMs);
      const minted = await mintTokenWithId(db, command.agent, {
        label: command.label ?? 'npm run token',
        ...(expiresAt === undefined ? {} : { expiresAt }),
      });
      return { action: 'mint', ...minted, expires_at: iso(expiresAt ?? null) };
    }
    case 'list':
      return {
        action: 'list',
        tokens: (await listTokens(db)).map((t) => ({
          id: t.id,
          agent: t.agent,
          label: t.label,
          created_at: t.createdAt.toISOString(),
          last_used_at: iso(t.lastUsedAt),
          expires_at: iso(t.expiresAt),
          revoked_at: iso(t.revokedAt),
        })),
      };
    case 'revoke':
      return { action: 'revoke', revoked: await revokeTokens(db, command.target, now) };
  }
}

/** "30d", "12h", "45m": an expiry as `--expires-in` takes it, in milliseconds; null when not one. */
export function parseDuration(text: string): number | null {
  const m = /^(\d{1,6})([dhm])$/.exec(text.trim());
  if (m === null) return null;
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as 'd' | 'h' | 'm'];
  const ms = Number(m[1]) * unit;
  return ms > 0 ? ms : null;
}

/** The list as a table for a terminal. */
export function formatTokenTable(tokens: readonly ListedToken[], now = new Date()): string {
  const day = (s: string | null) => (s === null ? '—' : s.slice(0, 16).replace('T', ' '));
  const status = (t: ListedToken) =>
    t.revoked_at !== null
      ? 'revoked'
      : t.expires_at !== null && new Date(t.expires_at) <= now
        ? 'expired'
        : 'live';
  const rows = [
    ['id', 'agent', 'status', 'created', 'last used', 'expires', 'label'],
    ...tokens.map((t) => [
      t.id,
      t.agent,
      status(t),
      day(t.created_at),
      day(t.last_used_at),
      day(t.expires_at),
      t.label ?? '',
    ]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
