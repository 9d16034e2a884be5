// `npm start`: the Node entry (entry/node.ts) run from one bundled file. This launcher is plain JavaScript:
// the first .ts file a process loads starts Node's type stripper, a fixed cost the bundle itself never needs. Loading ~700 modules one by one (our
// TypeScript, stripped file by file, and the many files of zod, drizzle, yaml, hono and the MCP SDK) was most
// of the time to the first answer; one file loads in a fraction of it. The bundle is built with esbuild into
// node_modules/.cache/chambers/ on the first start and again whenever one of its inputs is newer than it;
// without esbuild (a production install without dev dependencies), or with CHAMBERS_BUNDLE=0, the entry runs
// unbundled, exactly as before. What our code imports dynamically (the Word export, the PDF and image readers,
// the PostgreSQL and Upstash drivers, Tesseract) is split into chunks of its own, loaded at first use, so that
// neither they nor the packages they import are compiled before the first answer.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
// Node 20 cannot run the .ts entry at all: its version is checked first, in this process (no prestart hook).
import '../scripts/require_node22.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const cacheDir = join(root, 'node_modules', '.cache', 'chambers');
const bundleDir = join(cacheDir, 'bundle');
const bundle = join(bundleDir, 'node.mjs');
/** The bundle's inputs and output files (repository-relative), written beside it from esbuild's metafile. */
const inputsFile = join(cacheDir, 'node.inputs.json');

/**
 * Packages bundled in: pure ESM, many files, no file of their own read at run time. Everything else stays an
 * import of node_modules (PGlite and Tesseract load their wasm and workers relative to themselves).
 */
const BUNDLED = new Set([
  'zod',
  'drizzle-orm',
  'yaml',
  'hono',
  '@hono/node-server',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/core',
  'fflate',
  'saxes',
]);

/** @param {string} specifier */
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Whether the bundle and its chunks exist and are newer than every input they were built from (and the lock file). */
function fresh() {
  if (!existsSync(bundle) || !existsSync(inputsFile)) return false;
  const built = statSync(bundle).mtimeMs;
  /** @type {{ inputs?: string[], outputs?: string[] }} */
  const { inputs, outputs } = JSON.parse(readFileSync(inputsFile, 'utf8'));
  if (!Array.isArray(inputs) || !Array.isArray(outputs)) return false;
  if (!outputs.every((p) => existsSync(join(root, p)))) return false;
  return ['package-lock.json', ...inputs].every((p) => {
    try {
      return statSync(join(root, p)).mtimeMs <= built;
    } catch {
      return false;
    }
  });
}

async function build() {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(root, 'entry', 'node.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outdir: bundleDir,
    // Each dynamic import of ours is a chunk loaded when it runs, with its packages. Named by their content, so
    // a server still running an older build finds its own chunks after a rebuild (none is deleted).
    splitting: true,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'silent',
    // Bundled CommonJS may call require(); in an ES module it has to be made.
    banner: {
      js: "import { createRequire as __chambersRequire } from 'node:module';\nconst require = __chambersRequire(import.meta.url);",
    },
    plugins: [
      {
        name: 'chambers-node',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('node:') || !BUNDLED.has(packageOf(args.path))
              ? { path: args.path, external: true }
              : undefined,
          );
          // Our files find migrations, reader threads and packages relative to themselves: each keeps its own
          // import.meta.url, not the bundle's.
          b.onLoad({ filter: /\.ts$/ }, (args) => {
            if (args.path.includes(`${'/'}node_modules${'/'}`)) return undefined;
            const source = readFileSync(args.path, 'utf8');
            return {
              contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
              loader: 'ts',
            };
          });
        },
      },
    ],
  });
  const files = (/** @type {Record<string, unknown>} */ o) =>
    Object.keys(o).map((p) => relative(root, join(process.cwd(), p)));
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(
    inputsFile,
    JSON.stringify({ inputs: files(result.metafile.inputs), outputs: files(result.metafile.outputs) }),
  );
}

/** Builds the bundle when stale; false when it cannot be (no esbuild, a build error: said in one line). */
async function ensureBundle() {
  if (fresh()) return true;
  try {
    await build();
    return true;
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    console.error(`start: running entry/node.ts unbundled (the bundle could not be built: ${why})`);
    return false;
  }
}

// The embedded database's engine compiles on V8's background threads while the entry's modules load; the
// open takes it from here (src/db/pglite_wasm.ts, the same key). Read at once (9 MB from the file cache, a few
// ms): read asynchronously, each of its chunks waited for the main thread, busy loading the bundle, and the
// compile began only after it. A failure is not handled here: the open awaits the same promise and reports it.
if (!process.env.DATABASE_URL) {
  const key = Symbol.for('chambers.pgliteWasm');
  const compiled = (async () =>
    WebAssembly.compile(readFileSync(new URL('pglite.wasm', import.meta.resolve('@electric-sql/pglite')))))();
  compiled.catch(() => {});
  Object.assign(globalThis, { [key]: compiled });
}
if (process.env.CHAMBERS_BUNDLE !== '0' && (await ensureBundle())) {
  // V8's compiled code of the bundle (and of the packages it loads) kept on disk: a start after the first
  // skips compiling ~3 MB of JavaScript. Keyed by each file's content, so a rebuilt bundle is compiled anew.
  if (process.env.CHAMBERS_COMPILE_CACHE !== '0') enableCompileCache(join(cacheDir, 'v8'));
  // Which build runs, for what the entry keeps between its starts (entry/schema_memo.ts).
  const { mtimeMs, size } = statSync(bundle);
  Object.assign(globalThis, {
    [Symbol.for('chambers.build')]: { cacheDir, id: `${Math.trunc(mtimeMs)}-${size}` },
  });
  await import(pathToFileURL(bundle).href);
} else await import('./node.ts');
