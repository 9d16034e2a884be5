// POST /v1/tools/:name over a loopback socket: the same envelope as /mcp with the HTTP status of each code the
// plain JSON route can return, Retry-After on retryable refusals, and the media-type and JSON checks.
import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/envelope.ts';
import { errorCatalogue } from '../../src/contract/errors.ts';
import { expectOk } from '../harness/server.ts';
import { expectRefusal, httpSuiteServer, listTools, mcpHeaders } from './_http.ts';

describe('the plain JSON route', () => {
  const { server, latch, auth, v1, caseCount } = httpSuiteServer();

  describe('POST /v1/tools/:name: the same envelope with HTTP statuses', () => {
    const expectStatus = async (res: Response, status: number, code?: string) => {
      const body = (await res.json()) as Envelope;
      expect({ status: res.status, code: body.ok ? undefined : body.error.code }).toEqual({ status, code });
      if (code !== undefined) expect(errorCatalogue[code as keyof typeof errorCatalogue].http).toBe(status);
      return body;
    };

    it('200 with the envelope, the same as structuredContent over /mcp', async () => {
      const created = await expectStatus(
        await v1('case_create', { case_number: 'V1-1', title: 'JSON' }),
        200,
      );
      const id = expectOk<{ case: { id: string } }>(created).case.id;
      const viaJson = await expectStatus(await v1('case_get', { case_id: id }), 200);
      const viaMcp = await server().call('ceo', 'case_get', { case_id: id });
      expect(viaJson).toEqual(viaMcp);
      // "empty" is a success too.
      const none = await expectStatus(await v1('case_list', { text: 'nothing-matches-this' }), 200);
      expect(none.status).toBe('empty');
      // An empty body is no arguments.
      await expectStatus(await v1('case_list', ''), 200);
    });

    it('400 invalid_args: bad values, unknown names, a body that is not JSON or not an object', async () => {
      await expectStatus(await v1('case_get', { case_id: 'x' }), 400, 'invalid_args');
      const typo = await expectStatus(
        await v1('case_create', { case_number: 'V1-2', titel: 't' }),
        400,
        'invalid_args',
      );
      expect(JSON.stringify(typo)).toContain('did you mean \\"title\\"');
      await expectStatus(await v1('case_list', { limit: '020' }), 400, 'invalid_args');
      await expectStatus(await v1('case_list', '{"limit": '), 400, 'invalid_args');
      await expectStatus(await v1('case_list', '[1, 2]'), 400, 'invalid_args');
    });

    it('403 tool_not_granted and owner_gate_required', async () => {
      await expectStatus(
        await v1('case_create', { case_number: 'V1-3', title: 't' }, {}, 'analyst'),
        403,
        'tool_not_granted',
      );
      expect(await caseCount('V1-3')).toBe(0);
      const created = await server().callJson('ceo', 'case_create', { case_number: 'V1-4', title: 't' });
      const id = expectOk<{ case: { id: string } }>(created.body).case.id;
      await expectStatus(await v1('case_delete', { case_id: id }), 403, 'owner_gate_required');
    });

    it('404 not_found for a missing case and for an unknown tool', async () => {
      await expectStatus(await v1('case_get', { case_id: crypto.randomUUID() }), 404, 'not_found');
      const unknown = await expectStatus(await v1('case_frobnicate', {}), 404, 'not_found');
      expect(JSON.stringify(unknown)).toContain('case_frobnicate');
    });

    it('409 invalid_state for a change to an archived case', async () => {
      const created = await server().callJson('ceo', 'case_create', { case_number: 'V1-5', title: 't' });
      const id = expectOk<{ case: { id: string } }>(created.body).case.id;
      await expectStatus(await v1('case_update', { case_id: id, status: 'archived' }), 200);
      await expectStatus(await v1('case_update', { case_id: id, title: 'אחר' }), 409, 'invalid_state');
    });

    it('409 in_progress while the same call runs, then 200 replayed', async () => {
      latch.reset();
      const first = v1('probe_latch_run', { key: 'v1-latch' });
      await latch.entered();
      const dupRes = await v1('probe_latch_run', { key: 'v1-latch' });
      expect(dupRes.headers.get('retry-after')).toBe('1');
      const dup = await expectStatus(dupRes, 409, 'in_progress');
      expect(dup.ok ? null : dup.error.details).toMatchObject({ retry_after_ms: expect.any(Number) });
      latch.release();
      await expectStatus(await first, 200);
      const replay = await expectStatus(await v1('probe_latch_run', { key: 'v1-latch' }), 200);
      expect(replay).toMatchObject({ ok: true, replayed: true });
    });

    it('422 idempotency_key_reuse for the same case number with other details', async () => {
      await expectStatus(await v1('case_create', { case_number: 'V1-6', title: 'א' }), 200);
      await expectStatus(
        await v1('case_create', { case_number: 'V1-6', title: 'ב' }),
        422,
        'idempotency_key_reuse',
      );
    });

    it('415 unsupported_media_type for anything but application/json, before the body is read', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json-patch+json']) {
        await expectStatus(
          await v1('case_create', { case_number: 'V1-7', title: 't' }, { 'Content-Type': type }),
          415,
          'unsupported_media_type',
        );
      }
      // No Content-Type at all (a byte body carries none).
      const res = await fetch(`${server().url}/v1/tools/case_list`, {
        method: 'POST',
        headers: auth(),
        body: new TextEncoder().encode('{}'),
      });
      await expectStatus(res, 415, 'unsupported_media_type');
      expect(await caseCount('V1-7')).toBe(0);
      // /mcp refuses the same, as a JSON-RPC error.
      const mcp = await fetch(server().mcpUrl, {
        method: 'POST',
        headers: { ...auth(), 'Content-Type': 'text/plain', Accept: mcpHeaders.Accept },
        body: listTools,
      });
      await expectRefusal(mcp, 415, 'unsupported_media_type');
      // A charset parameter is still JSON.
      await expectStatus(
        await v1('case_list', {}, { 'Content-Type': 'application/json; charset=utf-8' }),
        200,
      );
    });

    it('500 internal with the request id and no detail', async () => {
      const res = await v1('probe_failure_run', {}, { 'x-request-id': 'v1-internal-1' });
      const body = await expectStatus(res, 500, 'internal');
      expect(res.headers.get('x-request-id')).toBe('v1-internal-1');
      expect(body).toMatchObject({ error: { details: { request_id: 'v1-internal-1' } } });
      expect(JSON.stringify(body)).not.toContain('hidden_internal_table');
    });

    it('GET /v1/tools lists the caller’s tools', async () => {
      const res = await fetch(`${server().url}/v1/tools`, { headers: auth('qa') });
      expect(res.status).toBe(200);
      const { tools: listed } = (await res.json()) as { tools: { name: string }[] };
      expect(listed.map((t) => t.name).filter((n) => n.startsWith('case_'))).toEqual([
        'case_final_text_get',
        'case_get',
        'case_list',
      ]);
      expect(listed.map((t) => t.name)).toContain('hai_proof');
      expect(listed.map((t) => t.name)).not.toContain('hai_open_mission');
    });
  });
});
