import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema (`npx drizzle-kit generate`), committed, and never edited afterwards.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
});
