import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, startTestServer, type TestServer } from '../harness/server.ts';

describe('smoke', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it('creates and reads a case through /mcp', async () => {
    const created = await s.call('ceo', 'case_create', { case_number: 'ערר 1/25', title: 'בדיקה' });
    const data = expectOk<{ case: { id: string }; created: boolean }>(created);
    expect(data.created).toBe(true);
    const got = await s.call('ceo', 'case_get', { case_id: data.case.id });
    expect(expectOk<{ case: { title: string } }>(got).case.title).toBe('בדיקה');
  });
});
