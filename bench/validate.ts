/**
 * draft_validate for `npm run bench` (alone: `node bench/validate.ts`): a generated case of 200 confirmed
 * claims and a draft citing 60 library rulings (each with a quote), validated in full (rules, citations,
 * quotes; PGlite in memory): the p50 of BENCH_VALIDATE_ROUNDS runs (goal ≤ 1 s). Then a draft with injected
 * errors, 50 of each kind — invented citations, wrong party names, wrong pinpoints, altered and invented
 * quotes — and the share of each kind caught with the right verdict (goal ≥ 95%), and the error findings on
 * the clean draft (goal: none).
 */
import { pathToFileURL } from 'node:url';
import { migrateDb } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import { claims } from '../src/db/schema/analysis.ts';
import { type CaseRow, cases } from '../src/db/schema/cases.ts';
import { documentPages, documents } from '../src/db/schema/documents.ts';
import type { Citation } from '../src/db/schema/drafting.ts';
import { draftBlocks } from '../src/db/schema/drafting.ts';
import type { Db } from '../src/db/types.ts';
import { validateDraft } from '../src/review/validate.ts';

const ROUNDS = Number(process.env.BENCH_VALIDATE_ROUNDS ?? 7);
const CLAIMS = 200;
const SOURCES = 60;
const INJECTED = 50;

// Words for generated holdings: every ruling's quote is its own sequence, so a quote has one home.
const WORDS =
  'תכנית היתר הקלה שימוש חורג ועדה מקומית מחוזית שמאי מכריע השבחה היטל זכויות בנייה מגרש חלקה גוש שטח עיקרי שירות קומה קווי בניין חניה תשתית ציבור נכס מקרקעין שווי פיצוי פגיעה סבירות מידתיות שיקול דעת הליך שימוע פרסום התנגדות ערר עתירה'.split(
    ' ',
  );
const word = (i: number, j: number) => WORDS[(i * 7 + j * 13 + ((i * j) % 5)) % WORDS.length] as string;
const holding = (i: number) => `${Array.from({ length: 14 }, (_, j) => word(i, j)).join(' ')} ${i}`;
const number = (i: number) => `עע״מ ${1000 + i}/1${i % 10}`;
const parties = (i: number) =>
  `${['כהן', 'לוי', 'מזרחי', 'פרץ', 'ביטון', 'אברהם'][i % 6]} ${i} נ׳ הוועדה המקומית`;

function sourceText(i: number): string {
  return Array.from({ length: 20 }, (_, p) =>
    p === 11
      ? `12. ${holding(i)}.`
      : `${p + 1}. פסקה ${p + 1} בעניין ${parties(i)} ובחינת ${word(i, p)} ${word(p, i)}.`,
  ).join('\n');
}

async function seed(db: Db): Promise<CaseRow> {
  const caseId = crypto.randomUUID();
  const [row] = await db
    .insert(cases)
    .values({
      id: caseId,
      caseNumber: 'ערר 3000/25',
      title: 'bench',
      appellant: 'כהן',
      respondent: 'הוועדה המקומית',
      createdBy: 'bench',
      outcome: 'rejection',
    })
    .returning();
  const docId = crypto.randomUUID();
  await db.insert(documents).values({
    id: docId,
    corpus: 'case',
    caseId,
    sha256: docId,
    mediaType: 'text/plain',
    byteSize: 1,
    title: 'ערר',
    status: 'ready',
    pageCount: 1,
    createdBy: 'bench',
  });
  await db.insert(claims).values(
    Array.from({ length: CLAIMS }, (_, i) => ({
      id: crypto.randomUUID(),
      caseId,
      party: i % 2 === 0 ? ('appellant' as const) : ('respondent' as const),
      kind: 'claim' as const,
      status: 'confirmed' as const,
      origin: 'recorded' as const,
      normText: `טענה ${i}`,
      createdBy: 'bench',
      documentId: docId,
      page: 1,
      start: 0,
      end: 1,
      text: `טענה ${i}`,
      extractorVersion: 'bench',
    })),
  );
  for (let i = 0; i < SOURCES; i++) {
    const id = crypto.randomUUID();
    await db.insert(documents).values({
      id,
      corpus: 'library',
      sha256: id,
      mediaType: 'text/plain',
      byteSize: 1,
      title: parties(i),
      number: number(i),
      parties: parties(i),
      status: 'ready',
      pageCount: 1,
      createdBy: 'bench',
    });
    await db.insert(documentPages).values({ documentId: id, page: 1, text: sourceText(i) });
  }
  if (row === undefined) throw new Error('no case');
  return row;
}

const cite = (i: number, over: Partial<Citation> = {}): Citation => ({
  text: `${number(i)} ${parties(i)}, פס׳ 12`,
  number: number(i),
  parties: parties(i),
  pinpoint: 'פס׳ 12',
  quote: holding(i),
  ...over,
});

/**
 * Writes the draft's blocks (version `v`): 20 discussion blocks of 3 citations each, answering every claim. Every
 * block has the substance a required block needs (real words, no placeholder), so the clean draft is clean.
 */
async function writeDraft(db: Db, c: CaseRow, v: number, citations: Citation[]): Promise<void> {
  const claimIds = (await db.select({ id: claims.id }).from(claims)).map((r) => r.id);
  const per = Math.ceil(citations.length / 20);
  const blocks = [
    {
      key: 'header',
      kind: 'header' as const,
      text: `ועדת הערר\n${c.caseNumber}\nהעוררים: כהן\nנגד\nהמשיבה: הוועדה המקומית`,
    },
    {
      key: 'background',
      kind: 'background' as const,
      text: 'העוררים הגישו ערר על החלטת הוועדה המקומית בעניין היטל ההשבחה שהוטל על המקרקעין.',
    },
    {
      key: 'appellant_claims',
      kind: 'appellant_claims' as const,
      text: 'העוררים טוענים כי השומה אינה משקפת את שווי המקרקעין ואת מצבם התכנוני.',
    },
    {
      key: 'respondent_claims',
      kind: 'respondent_claims' as const,
      text: 'המשיבה טוענת כי השומה נערכה כדין ומשקפת את מצבם התכנוני של המקרקעין.',
    },
    ...Array.from({ length: 20 }, (_, d) => ({
      key: `discussion:${d}`,
      kind: 'discussion' as const,
      text: 'לאחר שעיינו בטענות הצדדים ובשומות שהוגשו מצאנו כי יש להכריע בטענות אלה כמפורט בהלכות שלהלן.',
      claimIds: claimIds.slice(d * 10, d * 10 + 10),
      citations: citations.slice(d * per, d * per + per),
    })),
    { key: 'outcome', kind: 'outcome' as const, text: 'סוף דבר: הערר נדחה ואין צו להוצאות.' },
    { key: 'signature', kind: 'signature' as const, text: 'ניתנה היום בהיעדר הצדדים.' },
  ];
  await db.insert(draftBlocks).values(
    blocks.map((b) => ({
      id: crypto.randomUUID(),
      caseId: c.id,
      key: b.key,
      kind: b.kind,
      version: v,
      title: null,
      text: b.text,
      claimIds: 'claimIds' in b ? b.claimIds : [],
      argumentIds: [],
      citations: 'citations' in b ? b.citations : [],
      contentHash: `${b.key}:${v}`,
      source: 'write' as const,
      author: 'bench',
    })),
  );
}

export async function runValidateBench(): Promise<Record<string, string>> {
  const handle = await openPglite();
  try {
    await migrateDb(handle);
    const db = handle.db;
    const c = await seed(db);
    await writeDraft(
      db,
      c,
      1,
      Array.from({ length: SOURCES }, (_, i) => cite(i)),
    );
    await validateDraft(db, c); // warm-up: plans, regexes, JIT
    const times: number[] = [];
    let clean = await validateDraft(db, c);
    for (let r = 0; r < ROUNDS; r++) {
      const t = performance.now();
      clean = await validateDraft(db, c);
      times.push(performance.now() - t);
    }
    const p50 = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
    const falseErrors = clean.findings.filter((f) => f.severity === 'error');

    // The injected draft: per kind, 50 citations each carrying one error (quotes on otherwise good citations).
    const kinds = {
      invented_citation: (i: number) =>
        cite(i, {
          text: `עע״מ ${9000 + i}/99 פלוני נ׳ אלמוני`,
          number: `עע״מ ${9000 + i}/99`,
          parties: 'פלוני נ׳ אלמוני',
          pinpoint: undefined,
          quote: undefined,
        }),
      wrong_name: (i: number) =>
        cite(i, {
          text: `${number(i)} שמעון ${i} נ׳ מדינת ישראל`,
          parties: `שמעון ${i} נ׳ מדינת ישראל`,
          pinpoint: undefined,
          quote: undefined,
        }),
      wrong_pinpoint: (i: number) => cite(i, { pinpoint: `פס׳ ${40 + i}`, quote: undefined }),
      altered_quote: (i: number) => cite(i, { quote: holding(i).replace(word(i, 5), 'בלתי') }),
      invented_quote: (i: number) =>
        cite(i, { quote: `אין לקבל טענה זו כלל ועיקר שכן היא נטענה בשלב מאוחר ${i}` }),
    } as const;
    const expected: Record<keyof typeof kinds, { field: 'citation' | 'quote'; verdict: string }> = {
      invented_citation: { field: 'citation', verdict: 'not_found' },
      wrong_name: { field: 'citation', verdict: 'wrong_name' },
      wrong_pinpoint: { field: 'citation', verdict: 'wrong_pinpoint' },
      altered_quote: { field: 'quote', verdict: 'altered' },
      invented_quote: { field: 'quote', verdict: 'not_found' },
    };
    const injected = Object.values(kinds).flatMap((make) =>
      Array.from({ length: INJECTED }, (_, i) => make(i % SOURCES)),
    );
    await writeDraft(db, c, 2, injected);
    const found = await validateDraft(db, c);
    const rates: Record<string, number> = {};
    for (const [k, e] of Object.entries(expected)) {
      const from = Object.keys(kinds).indexOf(k) * INJECTED;
      let caught = 0;
      for (let i = 0; i < INJECTED; i++) {
        const text = injected[from + i]?.text;
        const cit = found.citations.filter((x) => x.text === text);
        if (e.field === 'citation') caught += cit.some((x) => x.verdict === e.verdict) ? 1 : 0;
        else
          caught += found.quotes.some(
            (q) =>
              q.citation === text &&
              q.quote.startsWith((injected[from + i]?.quote ?? '').slice(0, 20)) &&
              q.verdict === e.verdict,
          )
            ? 1
            : 0;
      }
      rates[k] = caught / INJECTED;
    }
    console.log(
      `\ndraft_validate: ${CLAIMS} claims, ${SOURCES} citations with quotes, 27 blocks (PGlite in memory), p50 of ${ROUNDS}: ${p50.toFixed(0)} ms`,
    );
    console.log(
      `  clean draft: ${falseErrors.length} error finding(s)${falseErrors.length ? ` (${falseErrors.map((f) => f.code).join(', ')})` : ''}`,
    );
    console.log(
      `  injected (${INJECTED} each): ${Object.entries(rates)
        .map(([k, r]) => `${k} ${(r * 100).toFixed(0)}%`)
        .join(', ')}`,
    );
    return {
      validate_p50_ms: p50.toFixed(0),
      validate_false_errors: String(falseErrors.length),
      validate_min_catch: (Math.min(...Object.values(rates)) * 100).toFixed(0),
    };
  } finally {
    await handle.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pairs = await runValidateBench();
  console.log(
    `validate: ${Object.entries(pairs)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}
