/**
 * `npm run preview -- up <branch> | down <branch> | list | token <branch> <agent>`: a preview environment per
 * git branch, with its own database and its own key-value prefix.
 *
 * - Neon driver (NEON_API_KEY and NEON_PROJECT_ID set; scripts/deploy/preview/neon.ts): a Neon branch, an uploaded
 *   Worker version under the preview alias <branch>; needs the Cloudflare account and UPSTASH_REDIS_REST_*.
 * - Local driver (the default otherwise; scripts/deploy/preview/local.ts): a database copied from a template on the
 *   local PostgreSQL and `wrangler dev` on a free port, with the local Redis.
 *
 * `--driver local|neon` picks one explicitly; `--dry-run` (Neon driver) runs everything but wrangler's uploads.
 * With GITHUB_OUTPUT set (GitHub Actions), `up` also writes `preview_url=<url>` there.
 */
import { appendFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { AGENT_NAMES } from '../../src/agents/grants.ts';
import { mintToken } from '../../src/auth/tokens.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { printUp, slugOf } from './preview/common.ts';
import { localDatabaseUrl, localDown, localHost, localList, localUp } from './preview/local.ts';
import { neonDatabaseUrl, neonDown, neonList, neonUp } from './preview/neon.ts';

const USAGE = `usage: npm run preview -- up <branch> | down <branch> | list | token <branch> <agent>
  [--driver local|neon] [--dry-run]   (neon when NEON_API_KEY and NEON_PROJECT_ID are set, else local)`;

async function main(argv: string[]): Promise<void> {
  const dryRun = argv.includes('--dry-run') || process.env.PREVIEW_DRY_RUN === '1';
  const driverAt = argv.indexOf('--driver');
  const chosen = driverAt >= 0 ? argv[driverAt + 1] : undefined;
  const args = argv.filter(
    (a, i) => a !== '--dry-run' && (driverAt < 0 || (i !== driverAt && i !== driverAt + 1)),
  );
  const [command, branch, agent] = args;
  if (command === '__host' && branch !== undefined) return localHost(branch);
  const driver = chosen ?? (process.env.NEON_API_KEY && process.env.NEON_PROJECT_ID ? 'neon' : 'local');
  if (driver !== 'local' && driver !== 'neon') throw new Error(USAGE);
  if (command === 'list' && args.length === 1) {
    const rows = driver === 'neon' ? await neonList() : await localList();
    if (rows.length === 0) console.log(`No previews (${driver} driver).`);
    for (const row of rows) console.log(Object.values(row).join('  '));
    return;
  }
  if (branch === undefined || !['up', 'down', 'token'].includes(command ?? '')) throw new Error(USAGE);
  const slug = slugOf(branch);
  if (command === 'up' && args.length === 2) {
    console.log(`Preview ${slug} (${driver} driver)${dryRun && driver === 'neon' ? ', dry run' : ''}`);
    const up = driver === 'neon' ? await neonUp(slug, { dryRun }) : await localUp(slug, branch);
    printUp(up, `mint more with npm run preview -- token ${branch} <agent>`);
    if (process.env.GITHUB_OUTPUT) await appendFile(process.env.GITHUB_OUTPUT, `preview_url=${up.url}\n`);
    return;
  }
  if (command === 'down' && args.length === 2) {
    const gone = driver === 'neon' ? await neonDown(slug, { dryRun }) : await localDown(slug);
    console.log(`Preview ${slug} removed: ${JSON.stringify(gone)}`);
    return;
  }
  if (command === 'token' && agent !== undefined && args.length === 3) {
    if (!(AGENT_NAMES as readonly string[]).includes(agent)) throw new Error(`no agent "${agent}"`);
    const url = driver === 'neon' ? await neonDatabaseUrl(slug) : localDatabaseUrl(slug);
    if (url === null) throw new Error(`no preview ${slug}`);
    const handle = openPostgres(url, { max: 1 });
    try {
      process.stdout.write(`${await mintToken(handle.db, agent, `preview ${slug}`)}\n`);
    } finally {
      await handle.close();
    }
    return;
  }
  throw new Error(USAGE);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(`preview: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
