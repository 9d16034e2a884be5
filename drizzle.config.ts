import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema (`npx drizzle-kit generate`), committed, and never edited afterwards.
// `npm run db:migrate` applies them (scripts/deploy/migrate.ts: DATABASE_URL, else the embedded PGlite in DATA_DIR);
// with DATABASE_URL set, `npx drizzle-kit migrate`, `studio` and `check` reach that database too.
const url = process.env.DATABASE_URL;

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
  ...(url ? { dbCredentials: { url } } : {}),
});
