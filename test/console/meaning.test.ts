// Every owner-gated tool reads, in the console, as what it means: a walk over the registry, so a gated tool
// added without a meaning renderer (src/console/meaning.ts) fails here instead of showing the chair raw ids.
// Each renderer runs on arguments naming nothing that exists and still says, in Hebrew, what would happen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../entry/registries.ts';
import { meaningRenderers } from '../../src/console/meaning.ts';
import { buildRegistry } from '../../src/contract/registry.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

const registry = buildRegistry(tools, { ownerGate: 'approval' });
const gated = registry.tools.filter((t) => t.def.ownerGate !== undefined && t.def.ownerGate !== false);
const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('approval meanings', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it('the registry has gated tools to walk', () => {
    expect(gated.length).toBeGreaterThanOrEqual(9);
  });

  it.each(gated.map((t) => t.def.name))('%s has a meaning renderer', async (name) => {
    const render = meaningRenderers[name];
    expect(render, `${name} is owner-gated but src/console/meaning.ts has no renderer for it`).toBeDefined();
    const args = {
      case_id: NOBODY,
      direction_id: NOBODY,
      halacha_id: NOBODY,
      mission_id: NOBODY,
      project_id: 'no-such-project',
      proposal_version: 1,
      decision: 'approve',
      outcome: 'rejection',
    };
    const meaning = await render?.(s.db.db, args);
    expect(meaning?.effect).toMatch(/[א-ת]/);
    expect(meaning?.effect).not.toMatch(/[a-z_]{4,}/);
    for (const item of meaning?.items ?? []) {
      expect(item.label).toMatch(/[א-ת]/);
      expect(String(item.body)).not.toContain(NOBODY);
    }
  });

  it('has no renderer for a tool that is not gated (a stale entry would hide a renamed tool)', () => {
    const names = new Set(gated.map((t) => t.def.name));
    expect(Object.keys(meaningRenderers).filter((n) => !names.has(n))).toEqual([]);
  });
});
