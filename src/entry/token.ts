// `npm run token -- <agent>`: mints a token for one agent against the same database as `npm start`
// (DATA_DIR or DATABASE_URL) and prints only the token, so scripts can capture it.
import { AGENT_NAMES } from '../agents/grants.ts';
import { mintToken } from '../auth/tokens.ts';
import { openNodeStores } from './node-stores.ts';

const agent = process.argv[2];
if (agent === undefined || !(AGENT_NAMES as readonly string[]).includes(agent)) {
  console.error(`usage: npm run token -- <agent>   (agent: ${AGENT_NAMES.join(', ')})`);
  process.exit(2);
}
const stores = await openNodeStores(process.env);
try {
  process.stdout.write(`${await mintToken(stores.handle.db, agent, 'npm run token')}\n`);
} finally {
  await stores.handle.close();
}
