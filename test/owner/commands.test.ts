// `npm run owner`: what add, link and list print (the link is for enrolment and recovery; the list says who
// has enrolled), on an embedded database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from '../../src/db/orm.ts';
import { owners } from '../../src/db/schema/owners.ts';
import { OWNER_USAGE, parseOwnerCommand, runOwnerCommand } from '../../src/owner/commands.ts';
import { createTestDb, type TestDb } from '../harness/databases.ts';

describe('npm run owner', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb('pglite');
  });
  afterAll(async () => db?.close());
  const run = (words: string[]) => {
    const command = parseOwnerCommand(words);
    if (command === null) throw new Error(`not a command: ${words.join(' ')}`);
    return runOwnerCommand(db.db, command, 'https://chambers.example/', new Date());
  };

  it('add points to the link for enrolment; link prints it with where to sign in afterwards', async () => {
    expect(await run(['add', 'rina'])).toBe(
      'Owner "rina" created. Enrol (set the console password) with the link of: npm run owner -- link rina',
    );
    const printed = await run(['link', 'rina']);
    expect(printed).toMatch(/^https:\/\/chambers\.example\/console\/login\?token=chl_[\w-]+\n/);
    expect(printed).toContain('the owner sets a password there');
    expect(printed).toContain('https://chambers.example/console/login with name and password alone');
    expect(OWNER_USAGE).toMatch(/first enrolment, and to recover/);
  });

  it('list says who has not enrolled yet', async () => {
    await run(['add', 'yael']);
    await db.db
      .update(owners)
      .set({ passwordSetAt: new Date('2026-01-02T03:04:05Z') })
      .where(eq(owners.name, 'yael'));
    const list = await run(['list']);
    expect(list).toMatch(/^rina .*\(not enrolled yet\)$/m);
    expect(list).toMatch(/^yael .*password set 2026-01-02T03:04:05\.000Z$/m);
  });
});
