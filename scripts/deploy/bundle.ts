// Bundling a Worker offline (`wrangler deploy --dry-run`, nothing uploaded) and measuring it: used by
// `npm run build`, `npm run deploy -- --dry-run` and the cold-start measure (bench/coldstart.ts).
import { spawnSync } from 'node:child_process';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { offlineEnv, wranglerBin } from './wrangler.ts';

export const root = fileURLToPath(new URL('../../', import.meta.url));

/** The two Workers of the deployment: their wrangler configs and names. */
export const WORKERS = {
  mcp: { config: 'wrangler.toml', name: 'chambers', label: 'MCP Worker' },
  extraction: { config: 'wrangler.extraction.toml', name: 'chambers-extraction', label: 'extraction Worker' },
} as const;

/**
 * The MCP Worker's upload must stay at most this big gzipped (the heavy libraries live in the other one). It
 * was 400 KiB for 37 tools; 84 tools of our own code took 401 KiB, and 88 tools with the readers of every
 * filing's layout, holdings by structure and the OCR page jobs take 460 KiB (no library added: the OCR
 * libraries are aliased away like pdf.js); 94 tools with the chair's console pages, sign-in, governance,
 * case dates and the search thesaurus take 497 KiB, again no library added. The bar allows growth of our
 * code, not libraries. The rule readers are here only for drains run without the extraction Worker's
 * binding; moving them out is the next saving.
 */
export const MCP_WORKER_MAX_GZIP = 512 * 1024;

/** Packages only the extraction Worker may hold. */
export const HEAVY_PACKAGES = [
  'unpdf',
  'docx',
  'pdfjs-dist',
  'jszip',
  'tesseract.js',
  'utif2',
  'pngjs',
  'pako',
] as const;

export interface Bundle {
  /** The main module (the bundle) and the text modules beside it, in upload order. */
  files: string[];
  /**
   * What Cloudflare counts against the limit, in bytes: all modules, raw and gzipped, exactly as wrangler
   * reports it ("Total Upload"), so the build and a deploy never show two different sizes.
   */
  raw: number;
  gzip: number;
  /** Minified bytes per package (esbuild's metafile); ours as "(ours) <folder>". */
  byPackage: Map<string, number>;
  /** Every input file of the bundle (the metafile). */
  inputs: string[];
}

const packageOf = (input: string) =>
  input.includes('node_modules/zod/v4/locales/')
    ? 'zod locales'
    : (/.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? `(ours) ${input.split('/')[0]}`);

/**
 * Bundles one Worker into `outdir` (emptied first) with wrangler's own bundler and measures it. Wrangler's
 * output is passed to `onOutput` without its "Total Upload" line: the size is printed once, by the caller,
 * from that line's figures.
 */
export async function bundleWorker(
  config: string,
  outdir: string,
  options: { extraArgs?: readonly string[]; onOutput?: (line: string) => void } = {},
): Promise<Bundle> {
  await rm(outdir, { recursive: true, force: true });
  const result = spawnSync(
    process.execPath,
    [
      wranglerBin,
      'deploy',
      '--dry-run',
      '-c',
      config,
      '--outdir',
      outdir,
      '--minify',
      '--metafile',
      ...(options.extraArgs ?? []),
    ],
    { cwd: root, encoding: 'utf8', env: { ...process.env, ...offlineEnv } },
  );
  const emit = options.onOutput ?? (() => {});
  const output = `${result.stdout}${result.stderr}`;
  for (const line of output.split('\n')) {
    if (!/Total Upload:|--dry-run: exiting now|^\s*$/.test(line)) emit(line);
  }
  if (result.status !== 0) {
    throw new Error(`wrangler could not bundle ${config} (exit ${result.status}):\n${output.slice(-2000)}`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: wrangler colours the figures (ANSI escapes).
  const total = /Total Upload:\s*(?:\x1b\[[0-9;]*m)?([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
  if (total === null) throw new Error(`wrangler printed no "Total Upload" line for ${config}`);
  const names = await readdir(outdir);
  const main = names.filter((n) => n.endsWith('.js'));
  if (main.length !== 1)
    throw new Error(`expected one .js bundle in ${outdir}, found ${main.join(', ') || 'none'}`);
  const modules: string[] = [];
  for (const name of names.sort()) {
    if (name.endsWith('.js') || name.endsWith('.map') || name === 'README.md' || name === 'bundle-meta.json')
      continue;
    if ((await stat(join(outdir, name))).isFile()) modules.push(name);
  }
  const files = [main[0] as string, ...modules];
  type Meta = { outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }> };
  const meta = JSON.parse(await readFile(join(outdir, 'bundle-meta.json'), 'utf8')) as Meta;
  const byPackage = new Map<string, number>();
  const inputs: string[] = [];
  for (const output of Object.values(meta.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      inputs.push(input);
      const pkg = packageOf(input);
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + bytesInOutput);
    }
  }
  const kibToBytes = (s: string | undefined) => Math.round(Number(s) * 1024);
  return { files, raw: kibToBytes(total[1]), gzip: kibToBytes(total[2]), byPackage, inputs };
}

/** The heavy packages whose code is in a bundle (by the metafile's input paths). */
export const heavyIn = (bundle: Bundle): string[] =>
  HEAVY_PACKAGES.filter((pkg) => bundle.inputs.some((i) => i.includes(`node_modules/${pkg}/`)));

const kib = (n: number) => `${(n / 1024).toFixed(2)} KiB`;

/** One line per Worker: the upload's size (raw / gzip), the only size the build prints. */
export const sizeLine = (label: string, b: Bundle) =>
  `${label}: ${kib(b.raw)} / gzip ${kib(b.gzip)} (${b.files.length} modules)`;

export const largestLine = (b: Bundle, n = 8) =>
  [...b.byPackage.entries()]
    .sort((x, y) => y[1] - x[1])
    .slice(0, n)
    .map(([k, v]) => `${k} ${Math.round(v / 1024)} KiB`)
    .join(', ');
