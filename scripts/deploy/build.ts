// `npm run build`: bundles both Workers offline (nothing is uploaded) into dist/mcp and dist/extraction and
// prints one size per Worker — the upload Cloudflare counts (bundle + text modules, gzipped as wrangler does) —
// with the largest parts. It fails when the MCP Worker holds a heavy library (by the bundle's metafile) or is
// over 512 KiB gzipped.
import { join } from 'node:path';
import {
  bundleWorker,
  heavyIn,
  largestLine,
  MCP_WORKER_MAX_GZIP,
  root,
  sizeLine,
  WORKERS,
} from './bundle.ts';

const verbose = process.argv.includes('--verbose');
const mcp = await bundleWorker(WORKERS.mcp.config, join(root, 'dist', 'mcp'), {
  onOutput: verbose ? (l) => console.log(l) : undefined,
});
const extraction = await bundleWorker(WORKERS.extraction.config, join(root, 'dist', 'extraction'), {
  onOutput: verbose ? (l) => console.log(l) : undefined,
});

console.log(sizeLine(`${WORKERS.mcp.label} (${WORKERS.mcp.name})`, mcp));
console.log(`  largest parts: ${largestLine(mcp)}`);
console.log(sizeLine(`${WORKERS.extraction.label} (${WORKERS.extraction.name})`, extraction));
console.log(`  largest parts: ${largestLine(extraction)}`);

const problems: string[] = [];
const heavy = heavyIn(mcp);
if (heavy.length > 0)
  problems.push(
    `the MCP Worker bundles ${heavy.join(', ')}: move that work into a job handler (entry/registries.ts)`,
  );
if (mcp.gzip > MCP_WORKER_MAX_GZIP)
  problems.push(`the MCP Worker is ${(mcp.gzip / 1024).toFixed(2)} KiB gzipped, over the 512 KiB bar`);
if (!heavyIn(extraction).includes('unpdf'))
  problems.push('the extraction Worker lacks unpdf: its handlers cannot read PDFs');
if (problems.length > 0) {
  for (const p of problems) console.error(`build: ${p}`);
  process.exit(1);
}
console.log(
  `heavy libraries (${heavyIn(extraction).join(', ')}) only in the extraction Worker; MCP Worker under 512 KiB gzip`,
);
