// The Neon preview driver (NEON_API_KEY and NEON_PROJECT_ID set): a Neon branch "preview/<slug>" per git branch
// (created from the default branch, or reused), migrated; an extraction Worker of its own
// (chambers-extraction-<slug>) and a version of the MCP Worker uploaded under the preview alias <slug>, bound
// to it, with the branch's DATABASE_URL and KV_PREFIX=<slug>. down deletes the Neon branch, the keys under the
// prefix and the preview's extraction Worker. `--dry-run` (or PREVIEW_DRY_RUN=1) passes --dry-run to wrangler:
// everything else runs (tests use a local stand-in of the Neon API).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomToken } from '../../../src/contract/hash.ts';
import { createUpstashKv } from '../../../src/kv/upstash.ts';
import { root, WORKERS } from '../bundle.ts';
import { urlIn, wrangler } from '../cloudflare.ts';
import { migrateTarget } from '../migrate.ts';
import { deletePreviewKeys, mintAgentTokens, type PreviewUp } from './common.ts';
import { type NeonApi, neonApi } from './neon_api.ts';

export const NEON_BRANCH_PREFIX = 'preview/';

export interface NeonDriverEnv {
  NEON_API_KEY: string;
  NEON_PROJECT_ID: string;
  NEON_API_URL?: string | undefined;
  UPSTASH_REDIS_REST_URL: string;
  UPSTASH_REDIS_REST_TOKEN: string;
}

function neonEnv(env: NodeJS.ProcessEnv): NeonDriverEnv {
  const missing = [
    'NEON_API_KEY',
    'NEON_PROJECT_ID',
    'UPSTASH_REDIS_REST_URL',
    'UPSTASH_REDIS_REST_TOKEN',
  ].filter((n) => !env[n]);
  if (missing.length > 0)
    throw new Error(`the Neon preview driver needs ${missing.join(', ')} (README "Deploy")`);
  return env as unknown as NeonDriverEnv;
}

const apiOf = (env: NeonDriverEnv): NeonApi =>
  neonApi({
    apiKey: env.NEON_API_KEY,
    projectId: env.NEON_PROJECT_ID,
    ...(env.NEON_API_URL ? { baseUrl: env.NEON_API_URL } : {}),
    ...(process.env.NEON_POLL_MS ? { pollMs: Number(process.env.NEON_POLL_MS) } : {}),
  });

const extractionName = (slug: string) => `${WORKERS.extraction.name}-${slug}`;

/** wrangler.toml for this preview: the same MCP Worker, its binding pointed at the preview's extraction Worker. */
async function previewConfig(slug: string): Promise<string> {
  const dir = join(root, 'dist', 'preview');
  await mkdir(dir, { recursive: true });
  const text = (await readFile(join(root, WORKERS.mcp.config), 'utf8'))
    .replace(/^main = "(.*)"$/m, 'main = "../../$1"')
    .replaceAll('"./entry/stubs/heavy.cjs"', '"../../entry/stubs/heavy.cjs"')
    .replace(`service = "${WORKERS.extraction.name}"`, `service = "${extractionName(slug)}"`);
  if (!text.includes(extractionName(slug)))
    throw new Error('wrangler.toml has no EXTRACTION service binding');
  const path = join(dir, `wrangler.${slug}.toml`);
  await writeFile(path, text);
  return path;
}

/** The preview branch (found by name, else created) and its connection URI. */
async function branchUri(api: NeonApi, slug: string): Promise<{ uri: string; created: boolean; id: string }> {
  const name = `${NEON_BRANCH_PREFIX}${slug}`;
  const found = await api.findBranch(name);
  if (found !== null) return { uri: await api.connectionUri(found.id), created: false, id: found.id };
  const made = await api.createBranch(name);
  return { uri: made.uri ?? (await api.connectionUri(made.branch.id)), created: true, id: made.branch.id };
}

export async function neonUp(slug: string, options: { dryRun: boolean }): Promise<PreviewUp> {
  const env = neonEnv(process.env);
  const api = apiOf(env);
  const branch = await branchUri(api, slug);
  console.log(
    `Neon branch ${NEON_BRANCH_PREFIX}${slug} (${branch.id}) ${branch.created ? 'created' : 'reused'}`,
  );
  const migrated = await migrateTarget({ DATABASE_URL: branch.uri });
  console.log(
    `migrations applied: ${migrated.applied.length === 0 ? 'none pending' : migrated.applied.join(', ')}`,
  );
  const dry = options.dryRun ? ['--dry-run'] : [];
  const ext = await wrangler([
    'deploy',
    '-c',
    WORKERS.extraction.config,
    '--name',
    extractionName(slug),
    ...dry,
  ]);
  if (ext.code !== 0) throw new Error(`wrangler deploy of ${extractionName(slug)} failed`);
  const config = await previewConfig(slug);
  const upload = await wrangler(
    ['versions', 'upload', '-c', config, '--preview-alias', slug, '--var', `KV_PREFIX:${slug}`, ...dry],
    {
      secrets: {
        DATABASE_URL: branch.uri,
        UPSTASH_REDIS_REST_URL: env.UPSTASH_REDIS_REST_URL,
        UPSTASH_REDIS_REST_TOKEN: env.UPSTASH_REDIS_REST_TOKEN,
        WORKER_SECRET: process.env.WORKER_SECRET || randomToken(24),
      },
    },
  );
  await rm(config, { force: true });
  if (upload.code !== 0) throw new Error('wrangler versions upload failed');
  const url =
    urlIn(upload.output, 'alias') ??
    (options.dryRun ? `https://${slug}-${WORKERS.mcp.name}.<your-subdomain>.workers.dev` : null);
  if (url === null) throw new Error('wrangler printed no preview URL');
  return { slug, url, tokens: branch.created ? await mintAgentTokens(branch.uri, slug) : null };
}

export async function neonDown(
  slug: string,
  options: { dryRun: boolean },
): Promise<{ branch: boolean; keys: number }> {
  const env = neonEnv(process.env);
  const api = apiOf(env);
  const found = await api.findBranch(`${NEON_BRANCH_PREFIX}${slug}`);
  if (found !== null) await api.deleteBranch(found.id);
  const keys = await deletePreviewKeys(
    createUpstashKv({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN }),
    slug,
  );
  const del = await wrangler([
    'delete',
    '--name',
    extractionName(slug),
    '--force',
    ...(options.dryRun ? ['--dry-run'] : []),
  ]);
  if (del.code !== 0) console.warn(`wrangler delete ${extractionName(slug)} failed (already gone?)`);
  return { branch: found !== null, keys };
}

export async function neonList(): Promise<{ slug: string; id: string }[]> {
  const api = apiOf(neonEnv(process.env));
  return (await api.listBranches(NEON_BRANCH_PREFIX)).map((b) => ({
    slug: b.name.slice(NEON_BRANCH_PREFIX.length),
    id: b.id,
  }));
}

/** The branch's database URL (to mint more tokens into it); null when there is no such preview. */
export async function neonDatabaseUrl(slug: string): Promise<string | null> {
  const api = apiOf(neonEnv(process.env));
  const found = await api.findBranch(`${NEON_BRANCH_PREFIX}${slug}`);
  return found === null ? null : api.connectionUri(found.id);
}
