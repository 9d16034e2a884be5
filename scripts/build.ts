// `npm run build`: bundles the Worker offline (`wrangler deploy --dry-run`, nothing is uploaded) into dist/
// and prints the size that counts against the Workers limit: the bundle (dist/<main>.js) raw and gzipped.
import { spawnSync } from 'node:child_process';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { offlineEnv, wranglerBin } from './wrangler.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = join(root, 'dist');

// wrangler leaves old files in the outdir (text modules are named by content hash), so start empty.
await rm(outdir, { recursive: true, force: true });
const result = spawnSync(
  process.execPath,
  [wranglerBin, 'deploy', '--dry-run', '--outdir', outdir, '--minify', '--metafile'],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...offlineEnv },
  },
);
if (result.status !== 0) {
  console.error(`build: wrangler exited with ${result.status ?? result.signal}`);
  process.exit(result.status ?? 1);
}

// The bundle is named after wrangler.toml's `main` (entry/cloudflare.ts → cloudflare.js): the one .js file.
const bundles = (await readdir(outdir)).filter((name) => name.endsWith('.js'));
if (bundles.length !== 1) {
  console.error(`build: expected one .js bundle in dist/, found ${bundles.join(', ') || 'none'}`);
  process.exit(1);
}
const bundleName = bundles[0] as string;
const worker = await readFile(join(outdir, bundleName));
// Text modules (agents/*.md) are uploaded beside the bundle and count toward the Worker's size too.
let modulesRaw = 0;
let modulesGzip = 0;
let modules = 0;
for (const name of await readdir(outdir)) {
  if (name === bundleName || name.endsWith('.map') || name === 'README.md' || name === 'bundle-meta.json')
    continue;
  const path = join(outdir, name);
  if (!(await stat(path)).isFile()) continue;
  const bytes = await readFile(path);
  modules++;
  modulesRaw += bytes.length;
  modulesGzip += gzipSync(bytes, { level: 9 }).length;
}
// What fills the bundle: minified bytes per package (esbuild's metafile), so a growing bundle can be traced.
type Meta = { outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }> };
const meta = JSON.parse(await readFile(join(outdir, 'bundle-meta.json'), 'utf8')) as Meta;
const byPackage = new Map<string, number>();
for (const output of Object.values(meta.outputs)) {
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    // zod's locales are listed apart: they are most of zod's share and only its error messages need them.
    const pkg = input.includes('node_modules/zod/v4/locales/')
      ? 'zod locales'
      : (/.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? `(ours) ${input.split('/')[0]}`);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + bytesInOutput);
  }
}
const largest = [...byPackage.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
console.log(`largest parts: ${largest.map(([k, v]) => `${k} ${Math.round(v / 1024)} KiB`).join(', ')}`);
console.log(`modules: ${modules} text modules raw=${modulesRaw} B gzip=${modulesGzip} B`);
console.log(`bundle: ${bundleName} raw=${worker.length} B gzip=${gzipSync(worker, { level: 9 }).length} B`);
