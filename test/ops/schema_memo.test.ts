// The Node entry's file of the tools' JSON Schemas: none without a bundle to key it by; what one start of a
// build derives, the next start of that build reads; a new build starts its own file and removes the old.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSchemaMemo } from '../../entry/schema_memo.ts';

const BUILD = Symbol.for('chambers.build');
const setBuild = (value: unknown) => Object.assign(globalThis, { [BUILD]: value });

describe('the JSON Schemas kept between starts', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    setBuild(undefined);
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  it('are kept only for a bundled start', () => {
    setBuild(undefined);
    expect(buildSchemaMemo()).toBeUndefined();
  });

  it('are read by the next start of the same build, and dropped with it', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'chambers-schemas-'));
    dirs.push(cacheDir);
    setBuild({ cacheDir, id: 'one' });
    const first = buildSchemaMemo();
    expect(first?.memo.get('case_get input ack')).toBeUndefined();
    first?.memo.set('case_get input ack', { type: 'object' });
    first?.save();
    expect(buildSchemaMemo()?.memo.get('case_get input ack')).toEqual({ type: 'object' });

    setBuild({ cacheDir, id: 'two' });
    const next = buildSchemaMemo();
    expect(next?.memo.get('case_get input ack')).toBeUndefined();
    next?.memo.set('case_get input ack', { type: 'object', title: 'x' });
    next?.save();
    expect(await readdir(cacheDir)).toEqual(['schemas-two.json']);
  });
});
