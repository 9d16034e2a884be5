/**
 * `npm run deploy`: production in one command, in this order, stopping at the first failure:
 *   1. checks the four Worker settings in the environment (DATABASE_URL, UPSTASH_REDIS_REST_URL,
 *      UPSTASH_REDIS_REST_TOKEN, WORKER_SECRET) and wrangler's account (CLOUDFLARE_API_TOKEN);
 *   2. bundles both Workers and checks them (no heavy library in the MCP Worker, at most 512 KiB gzip);
 *   3. applies the migrations to DATABASE_URL (`npm run db:migrate`): a failure stops the deploy, so code
 *      never runs against a schema it does not know;
 *   4. deploys the extraction Worker (the binding's target must exist first), then the MCP Worker with the
 *      four secrets (`--secrets-file`: nobody edits the secret store by hand).
 *
 * `npm run deploy -- --dry-run` does everything that needs no account: it checks the settings (a set but invalid
 * one fails; missing ones are listed as where a real deploy would stop), the bundles and their sizes, and the
 * migrations applied to a scratch database (an in-memory PGlite), printing what a deploy would run.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, ocrEnvSchema, parseEnv, workerEnvSchema } from '../../src/config.ts';
import { DatabaseSetupError } from '../../src/db/ensure.ts';
import { migrateDb } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { bundleWorker, heavyIn, MCP_WORKER_MAX_GZIP, root, sizeLine, WORKERS } from './bundle.ts';
import { WORKER_SECRETS, type WorkerSecrets, wrangler } from './cloudflare.ts';
import { migrateTarget, migrationList, pendingMigrations } from './migrate.ts';

const step = (text: string) => console.log(`\n==> ${text}`);

export class DeployError extends Error {}

/** Both bundles, checked; throws DeployError naming what is wrong. */
export async function checkBundles(): Promise<void> {
  const mcp = await bundleWorker(WORKERS.mcp.config, join(root, 'dist', 'mcp'));
  const extraction = await bundleWorker(WORKERS.extraction.config, join(root, 'dist', 'extraction'));
  console.log(sizeLine(`${WORKERS.mcp.label} (${WORKERS.mcp.name})`, mcp));
  console.log(sizeLine(`${WORKERS.extraction.label} (${WORKERS.extraction.name})`, extraction));
  const heavy = heavyIn(mcp);
  if (heavy.length > 0) throw new DeployError(`the MCP Worker bundles ${heavy.join(', ')}`);
  if (mcp.gzip > MCP_WORKER_MAX_GZIP) throw new DeployError('the MCP Worker is over 512 KiB gzipped');
}

/** The migrations applied to an empty in-memory database: they apply cleanly, in this order. */
export async function scratchMigrationPlan(): Promise<string[]> {
  const scratch = await openPglite({});
  try {
    const pending = (await pendingMigrations(scratch)).map((m) => m.tag);
    await migrateDb(scratch);
    const left = await pendingMigrations(scratch);
    if (left.length > 0)
      throw new DeployError(`migrations left unapplied: ${left.map((m) => m.tag).join(', ')}`);
    return pending;
  } finally {
    await scratch.close();
  }
}

/**
 * What a deploy needs from the environment, checked like the Worker checks it on its first request: the
 * settings not set, and those set but invalid. A real deploy stops on either; a dry run only on the second.
 */
export function settingsReport(env: NodeJS.ProcessEnv): { missing: string[]; invalid: string[] } {
  const missing: string[] = [...WORKER_SECRETS, 'CLOUDFLARE_API_TOKEN'].filter((n) => !env[n]?.trim());
  const invalid: string[] = [];
  for (const schema of [workerEnvSchema, ocrEnvSchema]) {
    try {
      parseEnv(schema, env);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      for (const p of e.problems)
        if (!missing.includes(p.variable)) invalid.push(`${p.variable} ${p.message}`);
    }
  }
  return { missing, invalid };
}

async function main(): Promise<void> {
  const dryRun = process.argv.includes('--dry-run');
  if (dryRun) {
    step('settings a deploy needs (checked, not used)');
    const { missing, invalid } = settingsReport(process.env);
    if (invalid.length > 0) throw new DeployError(`invalid settings: ${invalid.join('; ')}`);
    console.log(
      missing.length === 0
        ? `${[...WORKER_SECRETS, 'CLOUDFLARE_API_TOKEN'].join(', ')}: set and valid`
        : `not set: ${missing.join(', ')} — a real deploy would stop here (README "Deploy")`,
    );
    step('bundles (wrangler deploy --dry-run, offline)');
    await checkBundles();
    step('migrations, against a scratch database (in-memory PGlite)');
    const plan = await scratchMigrationPlan();
    console.log(`All ${plan.length} migrations apply cleanly to an empty database: ${plan.join(', ')}.`);
    console.log(`Against DATABASE_URL, \`npm run db:migrate -- --plan\` lists what a deploy would apply.`);
    step('what `npm run deploy` would run next (needs the Cloudflare account)');
    console.log(`  npm run db:migrate                      (DATABASE_URL; a failure stops the deploy)`);
    console.log(`  wrangler deploy -c ${WORKERS.extraction.config}`);
    console.log(`  wrangler deploy -c ${WORKERS.mcp.config} --secrets-file <${WORKER_SECRETS.join(', ')}>`);
    console.log('\ndeploy --dry-run: ok');
    return;
  }
  step('settings');
  const { missing, invalid } = settingsReport(process.env);
  if (invalid.length > 0) throw new DeployError(`invalid settings: ${invalid.join('; ')}`);
  if (missing.length > 0) throw new DeployError(`not set: ${missing.join(', ')} (README "Deploy")`);
  const secrets = Object.fromEntries(
    WORKER_SECRETS.map((n) => [n, process.env[n] as string]),
  ) as WorkerSecrets;
  console.log(`${WORKER_SECRETS.join(', ')}: set`);
  step('bundles');
  await checkBundles();
  step('migrations (DATABASE_URL)');
  const migrated = await migrateTarget(process.env);
  console.log(
    migrated.applied.length === 0
      ? `The ${migrated.where} is up to date (${(await migrationList()).length} migrations).`
      : `Applied to the ${migrated.where}: ${migrated.applied.join(', ')}.`,
  );
  step(`deploy ${WORKERS.extraction.name}`);
  const ext = await wrangler(['deploy', '-c', WORKERS.extraction.config]);
  if (ext.code !== 0) throw new DeployError(`wrangler deploy of ${WORKERS.extraction.name} failed`);
  step(`deploy ${WORKERS.mcp.name} with its secrets`);
  const mcp = await wrangler(['deploy', '-c', WORKERS.mcp.config], { secrets });
  if (mcp.code !== 0) throw new DeployError(`wrangler deploy of ${WORKERS.mcp.name} failed`);
  console.log('\ndeploy: done. Mint tokens with DATABASE_URL=<production url> npm run token -- <agent>.');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    const known = e instanceof DeployError || e instanceof DatabaseSetupError;
    console.error(`deploy: ${known ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    console.error('Nothing was deployed after the step that failed.');
    process.exit(1);
  });
}
