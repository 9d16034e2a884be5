// The import rules of `npm run check:imports` (dependency-cruiser with the swc parser, .dependency-cruiser.json):
// no import cycles, type-only ones included, src/ never imports functions/ or entry/, and src/db/schema/
// imports only drizzle and its siblings. TypeScript 7 has no
// JavaScript compiler API, so the fixtures prove the tool still parses .ts files: it must see each violation.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const config = join(root, '.dependency-cruiser.json');
// The package exports no package.json: its bin lives beside the installed package in node_modules.
const bin = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');

const cruise = async (cwd: string, paths: string[]) => {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [bin, '--config', config, ...paths], {
      cwd,
    });
    return { code: 0, out: stdout };
  } catch (e) {
    const failed = e as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}` };
  }
};

describe('import rules', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('the tree has no cycle, src/ imports neither functions/ nor entry/, the schema nothing above it', async () => {
    const { code, out } = await cruise(root, ['src', 'functions', 'entry', 'scripts', 'test', 'bench']);
    expect(out).toMatch(/no dependency violations found \((\d{3,}) modules/);
    expect(code).toBe(0);
  });

  it('sees a cycle, a cycle of type-only imports, src/ importing entry/ and the schema importing up', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chambers-imports-'));
    dirs.push(dir);
    await mkdir(join(dir, 'src', 'db', 'schema'), { recursive: true });
    await mkdir(join(dir, 'entry'));
    const files: Record<string, string> = {
      'src/a.ts': "import { b } from './b.ts';\nexport const a = (n: number): number => b(n) + 1;\n",
      'src/b.ts':
        "import { a } from './a.ts';\nexport const b = (n: number): number => (n > 0 ? a(n - 1) : 0);\n",
      'src/c.ts': "import type { D } from './d.ts';\nexport interface C { d?: D }\n",
      'src/d.ts': "import type { C } from './c.ts';\nexport type D = { c: C };\n",
      'src/e.ts':
        "import { tools } from '../entry/registries.ts';\nexport const count: number = tools.length;\n",
      'entry/registries.ts': 'export const tools: readonly string[] = [];\n',
      'src/db/orm.ts': 'export const orm = 1;\n',
      'src/db/schema/columns.ts': "import { orm } from '../orm.ts';\nexport const column = orm;\n",
      'src/db/schema/claims.ts':
        "import { column } from './columns.ts';\nimport { kinds } from '../../kinds.ts';\nexport const claims = [column, ...kinds];\n",
      'src/kinds.ts': "export const kinds = ['claim', 'relief'];\n",
    };
    for (const [path, text] of Object.entries(files)) await writeFile(join(dir, path), text);
    const { code, out } = await cruise(dir, ['src', 'entry']);
    expect(code).not.toBe(0);
    expect(out).toMatch(/no-cycles: src\/a\.ts →\s+src\/b\.ts →\s+src\/a\.ts/);
    expect(out).toMatch(/no-cycles: src\/c\.ts →\s+src\/d\.ts →\s+src\/c\.ts/);
    expect(out).toContain('src-is-the-library: src/e.ts → entry/registries.ts');
    expect(out).toContain('schema-is-the-bottom: src/db/schema/claims.ts → src/kinds.ts');
    // Its siblings and src/db/orm.ts (drizzle's re-export) are the schema's own.
    expect(out).not.toMatch(
      /schema-is-the-bottom: src\/db\/schema\/(?:columns|claims)\.ts → src\/db\/(?:orm|schema\/columns)\.ts/,
    );
  });
});
