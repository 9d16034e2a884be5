/**
 * The Workers split (README "Cloudflare Workers"): the MCP Worker's bundle holds none of the heavy libraries
 * (by esbuild's metafile) and stays under 512 KiB gzipped; the extraction Worker holds them. The stub that
 * replaces them in the MCP Worker refuses any use with a message naming the way out.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Bundle,
  bundleWorker,
  heavyIn,
  MCP_WORKER_MAX_GZIP,
  WORKERS,
} from '../../scripts/deploy/bundle.ts';

describe('the two Workers’ bundles', () => {
  let dir = '';
  let mcp: Bundle;
  let extraction: Bundle;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chambers-bundle-'));
    [mcp, extraction] = await Promise.all([
      bundleWorker(WORKERS.mcp.config, join(dir, 'mcp')),
      bundleWorker(WORKERS.extraction.config, join(dir, 'extraction')),
    ]);
  }, 120_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the MCP Worker holds no heavy library and is at most 512 KiB gzipped', () => {
    expect(heavyIn(mcp)).toEqual([]);
    expect(mcp.inputs.some((i) => i.includes('entry/stubs/heavy.cjs'))).toBe(true);
    expect(mcp.gzip).toBeLessThanOrEqual(MCP_WORKER_MAX_GZIP);
    // The tools and the job kinds are there (entry/registries.ts composes them for both Workers).
    expect(mcp.inputs.some((i) => i.startsWith('functions/'))).toBe(true);
    expect(mcp.inputs).toContain('entry/registries.ts');
  });

  it('the extraction Worker holds pdf.js (unpdf), and no agent files', () => {
    expect(heavyIn(extraction)).toEqual(expect.arrayContaining(['unpdf']));
    expect(extraction.files.filter((f) => f.endsWith('.md'))).toEqual([]);
    expect(extraction.gzip).toBeGreaterThan(mcp.gzip);
  });

  it('the stub in their place refuses every use, naming the way out', () => {
    const stub = createRequire(import.meta.url)('../../entry/stubs/heavy.cjs') as Record<string, unknown>;
    expect(stub.__esModule).toBeUndefined();
    expect(() => stub.extractText).toThrow(/job handler \(entry\/registries\.ts\)/);
  });
});
