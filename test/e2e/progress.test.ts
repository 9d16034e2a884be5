// Progress through the official client on both eras: a call that carries a progressToken gets
// notifications/progress on an SSE response before its result; without a token the tool's progress
// calls are no-ops. Over a loopback socket (`socket: true`): the subject is the SSE stream on the wire.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toolList as tools } from '../../functions/index.ts';
import { defineTool } from '../../src/contract/define.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

const probe_progress_run = defineTool({
  name: 'probe_progress_run',
  description: 'Test fixture: reports progress a given number of times, then returns how many steps it ran.',
  input: { steps: z.number().int().min(1).max(10).describe('How many progress updates to send') },
  output: z.object({ steps: z.int() }),
  mutates: false,
  async run({ ctx, input }) {
    for (let i = 1; i <= input.steps; i++) {
      await ctx.progress({ progress: i, total: input.steps, message: `step ${i} of ${input.steps}` });
      // A macrotask between updates, so they are separate frames on the wire.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return { steps: input.steps };
  },
});

describe('progress notifications', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      socket: true,
      tools: [...tools, probe_progress_run],
      grants: { writer: ['probe_progress_run'] },
    });
  });
  afterAll(async () => s?.close());

  describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
    it('a call with onprogress receives every update in order, then the result', async () => {
      const client = await s.connect('writer', { era });
      const updates: { progress: number; total?: number; message?: string }[] = [];
      const result = await client.callTool(
        { name: 'probe_progress_run', arguments: { steps: 3 } },
        { onprogress: (p) => updates.push({ progress: p.progress, total: p.total, message: p.message }) },
      );
      expect(result.structuredContent as unknown as Envelope).toMatchObject({ ok: true, data: { steps: 3 } });
      expect(updates).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i} of 3` })));
    });

    it('a call without a progress token still succeeds (progress is a no-op)', async () => {
      const client = await s.connect('writer', { era });
      const result = await client.callTool({ name: 'probe_progress_run', arguments: { steps: 2 } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent as unknown as Envelope).toMatchObject({ ok: true, data: { steps: 2 } });
    });
  });

  it('on the wire: a progressToken makes the response an SSE stream with the notifications before the result', async () => {
    const res = await fetch(s.mcpUrl, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${s.tokens.writer}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 41,
        method: 'tools/call',
        params: { name: 'probe_progress_run', arguments: { steps: 2 }, _meta: { progressToken: 'tok-41' } },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = (await res.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
    expect(frames).toMatchObject([
      { method: 'notifications/progress', params: { progressToken: 'tok-41', progress: 1, total: 2 } },
      { method: 'notifications/progress', params: { progressToken: 'tok-41', progress: 2, total: 2 } },
      { id: 41, result: { structuredContent: { ok: true, data: { steps: 2 } } } },
    ]);
  });
});
