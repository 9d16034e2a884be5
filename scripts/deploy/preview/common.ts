// What both preview drivers share: the branch's slug (the key-value prefix and the preview alias), minting the
// agents' tokens in the branch's database, and removing the branch's key-value keys.
import { AGENT_NAMES } from '../../../src/agents/grants.ts';
import { mintToken } from '../../../src/auth/tokens.ts';
import { openPostgres } from '../../../src/db/postgres.ts';
import { kvKeyStart } from '../../../src/kv/prefix.ts';
import type { KvStore } from '../../../src/kv/types.ts';

/**
 * A git branch as a preview names it: lower-case letters, digits and dashes, starting with a letter, at most
 * 40 characters (a Workers preview alias and the host name built from it stay short; it is also a valid
 * KV_PREFIX). "feature/Token-Admin_2" → "feature-token-admin-2".
 */
export function slugOf(branch: string): string {
  let slug = branch
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!/^[a-z]/.test(slug)) slug = `b-${slug}`;
  slug = slug.slice(0, 40).replace(/-+$/, '');
  if (slug === 'b' || slug === '') throw new Error(`"${branch}" has no letters or digits to name a preview`);
  // "prod" is production's key-value prefix: a branch of that name must not share it.
  return slug === 'prod' ? 'b-prod' : slug;
}

/** One token per agent in the branch's database (PostgreSQL URL); they are shown once. */
export async function mintAgentTokens(databaseUrl: string, slug: string): Promise<Record<string, string>> {
  const handle = openPostgres(databaseUrl, { max: 1 });
  try {
    const tokens: Record<string, string> = {};
    for (const agent of AGENT_NAMES) tokens[agent] = await mintToken(handle.db, agent, `preview ${slug}`);
    return tokens;
  } finally {
    await handle.close();
  }
}

/** Deletes every key of the preview's KV_PREFIX; returns how many. */
export const deletePreviewKeys = (kv: KvStore, slug: string) => kv.deleteByPrefix(kvKeyStart(slug));

export interface PreviewUp {
  slug: string;
  url: string;
  /** Shown once, when the preview's database is new; null when an existing preview was updated. */
  tokens: Record<string, string> | null;
}

export function printUp(up: PreviewUp, mintHint: string): void {
  console.log(`\nPreview ${up.slug}: ${up.url}/mcp`);
  if (up.tokens === null) {
    console.log(`(an existing preview, updated: its tokens were shown when it was created; ${mintHint})`);
    return;
  }
  console.log('Tokens (shown once):');
  for (const [agent, token] of Object.entries(up.tokens)) {
    // In GitHub Actions the log is readable by everyone with access to the repository: masked there.
    if (process.env.GITHUB_ACTIONS === 'true') console.log(`::add-mask::${token}`);
    console.log(`  ${agent.padEnd(10)} ${token}`);
  }
}
