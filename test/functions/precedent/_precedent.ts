// Shared by the precedent tools' tests: a ruling in the library to quote, and a precedent pinned as the
// researcher.
import { expect } from 'vitest';
import type { Db } from '../../../src/db/types.ts';
import { seedDocument, textBytes } from '../../harness/documents.ts';
import { expectOk, type TestServer } from '../../harness/server.ts';

export const QUOTE = 'הקלה אינה כלי לשינוי ייעוד המקרקעין';

/** A ready library ruling whose first page holds QUOTE. */
export async function seedQuoted(db: Db): Promise<string> {
  const row = await seedDocument(db, {
    corpus: 'library',
    caseId: null,
    bytes: textBytes(`עע"מ 9001/19 ${crypto.randomUUID()}\n4. הלכה היא כי ${QUOTE}.\nשינוי כזה טעון תכנית.`),
    number: 'עע"מ 9001/19',
  });
  expect(row.status).toBe('ready');
  return row.id;
}

export interface PrecedentData {
  precedent: { precedent_id: string; case_id: string; citation_key: string; section: string };
  created: boolean;
}

export async function attach(s: TestServer, args: Record<string, unknown>): Promise<PrecedentData> {
  return expectOk<PrecedentData>(await s.call('researcher', 'precedent_attach', args));
}
