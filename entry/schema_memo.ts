// The tools' JSON Schemas kept between starts of one bundle (node_modules/.cache/chambers/): deriving them from
// the zod schemas was most of the app's build at each start. The file is named by the bundle it was derived
// from (entry/start.mjs says which), so a rebuilt bundle starts a new one; the unbundled entry keeps none.
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SchemaMemo } from '../src/contract/registry.ts';
import type { JsonSchema } from '../src/contract/schema.ts';

/** What entry/start.mjs tells the bundle it runs: where its cache is and which build this is. */
interface BuildInfo {
  cacheDir: string;
  id: string;
}

const BUILD = Symbol.for('chambers.build');

/** The memo of this build's JSON Schemas, or undefined when the entry runs unbundled (no build to key by). */
export function buildSchemaMemo(): { memo: SchemaMemo; save(): void } | undefined {
  const build = (globalThis as { [BUILD]?: BuildInfo })[BUILD];
  if (build === undefined) return undefined;
  const file = join(build.cacheDir, `schemas-${build.id}.json`);
  let known: Record<string, JsonSchema> = {};
  try {
    known = JSON.parse(readFileSync(file, 'utf8')) as Record<string, JsonSchema>;
  } catch {
    // None yet (the first start of this build), or unreadable: derived anew and written.
  }
  let added = false;
  return {
    memo: {
      get: (key) => known[key],
      set: (key, schema) => {
        known[key] = schema;
        added = true;
      },
    },
    /** Writes the file when anything was derived (atomically: a concurrent start reads a whole file or none). */
    save() {
      if (!added) return;
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, JSON.stringify(known));
        renameSync(tmp, file);
        // Earlier builds' files are read by no start again.
        for (const f of readdirSync(build.cacheDir)) {
          if (/^schemas-.*\.json$/.test(f) && join(build.cacheDir, f) !== file)
            rmSync(join(build.cacheDir, f), { force: true });
        }
      } catch {
        // A read-only cache: the next start derives them again.
      }
    },
  };
}
