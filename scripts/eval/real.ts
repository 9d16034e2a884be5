// `npm run eval:real -- <dir> [--held-out-details]`: the rule-based readers measured on annotated real text.
// <dir>/excerpts.json holds excerpts with what a person read in them (citations, statutes, sections, plans,
// parcels, amounts, outcomes, claims). Each excerpt goes through the tools on a fresh in-memory database, as
// an agent would send it: a case document (role decision) for references, claims and amounts, and a library ruling for citations and the outcome; the queue is
// drained, and what the read tools return is compared with the annotation. Prints recall and precision per
// kind for the tuning excerpts, for the held-out third (fixed by a hash of the id) and for all of them, then every miss and
// every spurious item of the tuning excerpts (of the held-out ones too with --held-out-details). Amounts are
// the decision's own sums as appraiser_fact_get returns them (kinds levy, compensation, claimed), compared
// by value and label.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jobHandlers, tools } from '../../entry/registries.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';
import { mintToken } from '../../src/auth/tokens.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { migrateDb } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { createPostgresKv } from '../../src/kv/postgres.ts';
import { createChambers } from '../../src/server.ts';
import {
  compare,
  type Excerpt,
  emptyTally,
  excerptSchema,
  expectedItems,
  heldOut,
  type Items,
  KINDS,
  type Kind,
  parcelOfKey,
  planItem,
  sectionOfKey,
  statuteItem,
  type Tally,
  table,
} from './real_score.ts';

type Agent = 'ceo' | 'analyst' | 'researcher';

async function startApp() {
  const handle = await openPglite();
  await migrateDb(handle);
  const { app } = createChambers({
    agents: await loadAgentsFromDir('agents'),
    env: { RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent' },
    services: async () => ({ db: handle.db, kv: createPostgresKv(handle.db) }),
    tools,
    jobHandlers,
    defaultOwnerGate: 'ack',
  });
  const tokens: Record<Agent, string> = {
    ceo: await mintToken(handle.db, 'ceo', 'eval'),
    analyst: await mintToken(handle.db, 'analyst', 'eval'),
    researcher: await mintToken(handle.db, 'researcher', 'eval'),
  };
  /** One tool call over the JSON route; the data of a success, an exception otherwise. */
  async function call<T>(agent: Agent, tool: string, args: unknown): Promise<T> {
    const res = await app.fetch(
      new Request(`http://eval.invalid/v1/tools/${tool}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokens[agent]}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(args),
      }),
    );
    const body = (await res.json()) as Envelope<T>;
    if (!body.ok) throw new Error(`${tool}: ${JSON.stringify(body)}`);
    return body.data;
  }
  return { call, close: () => handle.close() };
}

type App = Awaited<ReturnType<typeof startApp>>;

interface Page<T> {
  items: T[];
  next_cursor?: string | null;
}

async function all<T>(app: App, agent: Agent, tool: string, args: Record<string, unknown>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null | undefined;
  do {
    const page = await app.call<Page<T>>(agent, tool, { ...args, limit: 200, ...(cursor ? { cursor } : {}) });
    out.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

async function drain(app: App): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const report = await app.call<{ claimed: number }>('ceo', 'extraction_run', { max_jobs: 50 });
    if (report.claimed === 0) return;
  }
  throw new Error('the queue did not drain');
}

interface Uploaded {
  excerpt: Excerpt;
  caseId: string;
  libraryId: string;
}

async function upload(app: App, excerpt: Excerpt, n: number): Promise<Uploaded> {
  const caseId = (
    await app.call<{ case: { id: string } }>('ceo', 'case_create', {
      case_number: `ערר ${9000 + n}/26`,
      title: `eval ${excerpt.id}`,
    })
  ).case.id;
  await app.call('analyst', 'document_upload', {
    corpus: 'case',
    case_id: caseId,
    role: 'decision',
    text: excerpt.text,
  });
  const lib = await app.call<{ document: { id: string } }>('researcher', 'library_add', {
    text: excerpt.text,
  });
  return { excerpt, caseId, libraryId: lib.document.id };
}

interface Fact {
  unit: string;
  value: number | string;
  kind: string;
}

async function foundItems(app: App, u: Uploaded): Promise<{ items: Items; labels: string[] }> {
  const refs = await all<{ kind: string; key: string }>(app, 'ceo', 'reference_list', { case_id: u.caseId });
  const of = (kind: string) => refs.filter((r) => r.kind === kind).map((r) => r.key);
  const claims = await all<{ party: string; source: { text: string } }>(app, 'ceo', 'claim_list', {
    case_id: u.caseId,
  });
  const facts = await app.call<{ groups: { kind: string; facts: Fact[] }[] }>('ceo', 'appraiser_fact_get', {
    case_id: u.caseId,
  });
  // The decision's sums under the annotation's labels (a sum claimed is the fact kind `claimed`).
  const label = (kind: string) => (kind === 'claimed' ? 'claim' : kind);
  const money = facts.groups.flatMap((g) =>
    g.facts
      .filter((f) => f.unit === 'agorot')
      .map((f) => ({ shekels: Number(f.value) / 100, kind: label(g.kind) })),
  );
  const citations = await all<{ key: string }>(app, 'ceo', 'citation_list', { document_id: u.libraryId });
  const got = await app.call<{
    items: { fields: { outcome: { value: unknown }; prior_outcome: { value: unknown } } }[];
  }>('ceo', 'library_get', { document_id: u.libraryId });
  const outcome = got.items[0]?.fields.outcome.value;
  const prior = got.items[0]?.fields.prior_outcome.value;
  const own = new Set(u.excerpt.own);
  return {
    items: {
      citations: citations.map((c) => c.key).filter((k) => !own.has(k)),
      statutes: [...of('statute'), ...of('regulation')].map(statuteItem),
      sections: of('section').map(sectionOfKey),
      plans: of('plan').map(planItem),
      parcels: of('parcel').map(parcelOfKey),
      amounts: money.map((m) => `${m.shekels} ${m.kind}`),
      outcome: typeof outcome === 'string' ? [outcome] : [],
      prior_outcome: typeof prior === 'string' ? [prior] : [],
      // The annotation has two sides: a third party (a permit applicant, a second respondent) is a respondent.
      claims: claims.map((c) => `${c.party === 'third_party' ? 'respondent' : c.party}: ${c.source.text}`),
    },
    labels: money.map((m) => `${m.shekels} read as ${m.kind}`),
  };
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A claim matches when the party is the same and one span holds the other (or their first 20 characters). */
function sameClaim(e: string, f: string): boolean {
  const [ep, ...et] = e.split(': ');
  const [fp, ...ft] = f.split(': ');
  if (ep !== fp) return false;
  const a = squash(et.join(': '));
  const b = squash(ft.join(': '));
  return a.includes(b) || b.includes(a) || b.includes(a.slice(0, 20));
}

async function main(argv: string[]): Promise<void> {
  const dir = argv.find((a) => !a.startsWith('--'));
  if (dir === undefined) throw new Error('usage: npm run eval:real -- <dir with excerpts.json>');
  const showHeldOut = argv.includes('--held-out-details');
  const file = JSON.parse(await readFile(join(dir, 'excerpts.json'), 'utf8')) as { excerpts: unknown[] };
  const excerpts = file.excerpts.map((e) => excerptSchema.parse(e));
  const app = await startApp();
  try {
    const uploaded: Uploaded[] = [];
    for (const [i, e] of excerpts.entries()) uploaded.push(await upload(app, e, i));
    await drain(app);
    const tallies = {
      tuning: Object.fromEntries(KINDS.map((k) => [k, emptyTally()])) as Record<Kind, Tally>,
      held_out: Object.fromEntries(KINDS.map((k) => [k, emptyTally()])) as Record<Kind, Tally>,
    };
    const details: string[] = [];
    for (const u of uploaded) {
      const set = heldOut(u.excerpt.id) ? 'held_out' : 'tuning';
      const expected = expectedItems(u.excerpt);
      const { items, labels } = await foundItems(app, u);
      const lines: string[] = [];
      for (const k of KINDS) {
        const r = compare(expected[k], items[k], k === 'claims' ? sameClaim : undefined);
        const t = tallies[set][k];
        t.expected += new Set(expected[k]).size;
        t.found += new Set(items[k]).size;
        t.hit += r.hit;
        for (const m of r.missed) lines.push(`  miss     ${k}: ${m}`);
        for (const s of r.spurious) lines.push(`  spurious ${k}: ${s}`);
      }
      const wanted = u.excerpt.amounts.map(([v, kind]) => `${v} ${kind}`);
      if (wanted.length > 0 || labels.length > 0) {
        lines.push(`  amounts  annotated [${wanted.join('; ')}], read [${labels.join('; ')}]`);
      }
      if (lines.length > 0 && (set === 'tuning' || showHeldOut))
        details.push(`${u.excerpt.id} (${set})`, ...lines);
    }
    const count = (h: boolean) => excerpts.filter((e) => heldOut(e.id) === h).length;
    console.log(table(`Tuning (${count(false)} excerpts)`, tallies.tuning));
    console.log('');
    console.log(table(`Held out (${count(true)} excerpts)`, tallies.held_out));
    console.log('');
    // The whole corpus: the figure the readers are held to (the two parts above only tell tuned from not).
    const whole = Object.fromEntries(KINDS.map((k) => [k, emptyTally()])) as Record<Kind, Tally>;
    for (const k of KINDS) {
      for (const part of [tallies.tuning, tallies.held_out]) {
        whole[k].expected += part[k].expected;
        whole[k].found += part[k].found;
        whole[k].hit += part[k].hit;
      }
    }
    console.log(table(`All (${excerpts.length} excerpts)`, whole));
    console.log('');
    console.log(details.join('\n'));
  } finally {
    await app.close();
  }
}

await main(process.argv.slice(2));
