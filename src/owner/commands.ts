// What `npm run owner` does, shared by the CLI (entry/owner.ts) and the running server's loopback admin
// route (entry/node.ts), which is how the CLI reaches an embedded database another process holds.
import type { Db } from '../db/types.ts';
import { addOwner, listOwners, loginPath, mintLoginLink, OwnerError } from './accounts.ts';

export type OwnerCommand = { op: 'add'; name: string } | { op: 'link'; name: string } | { op: 'list' };

export const OWNER_USAGE =
  'usage: npm run owner -- add <name>    create an owner (a person who governs the agents)\n' +
  '       npm run owner -- link <name>   print a single-use link (valid 15 minutes) where the owner sets a\n' +
  '                                      console password: for the first enrolment, and to recover one\n' +
  '       npm run owner -- list          the owners';

/** Reads `add <name>` / `link <name>` / `list`, or null when the words are not a command. */
export function parseOwnerCommand(words: readonly string[]): OwnerCommand | null {
  const [op, name, ...rest] = words;
  if (rest.length > 0) return null;
  if ((op === 'add' || op === 'link') && name !== undefined && name !== '') return { op, name };
  if (op === 'list' && name === undefined) return { op };
  return null;
}

/** Runs one command; `base` is the server's public origin (links are `${base}/console/login?token=…`). */
export async function runOwnerCommand(
  db: Db,
  command: OwnerCommand,
  base: string,
  now: Date,
): Promise<string> {
  switch (command.op) {
    case 'add': {
      const { owner, created } = await addOwner(db, command.name);
      const next = `Enrol (set the console password) with the link of: npm run owner -- link ${owner.name}`;
      return created
        ? `Owner "${owner.name}" created. ${next}`
        : `Owner "${owner.name}" already exists. ${next}`;
    }
    case 'link': {
      const { token, expiresAt } = await mintLoginLink(db, command.name, now);
      return (
        `${base.replace(/\/+$/, '')}${loginPath(token)}\n` +
        `(single use, until ${expiresAt.toISOString()}: the owner sets a password there, then signs in at ` +
        `${base.replace(/\/+$/, '')}/console/login with name and password alone)`
      );
    }
    case 'list': {
      const owners = await listOwners(db);
      if (owners.length === 0) return 'No owners yet: npm run owner -- add <name>';
      return owners
        .map(
          (o) =>
            `${o.name}${o.disabledAt === null ? '' : ' (disabled)'}  since ${o.createdAt.toISOString()}` +
            (o.passwordSetAt === null
              ? '  (not enrolled yet)'
              : `  password set ${o.passwordSetAt.toISOString()}`),
        )
        .join('\n');
    }
  }
}

export { OwnerError };
