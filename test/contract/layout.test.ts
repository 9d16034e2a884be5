// The shape of the tree that the registry depends on: functions/<family>/ holds only <family>_*.ts tools, one
// per file, named as its file and registered (every reusable rule lives in src/<area>/); no source file past
// 400 lines (generated migrations aside).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tools } from '../../functions/index.ts';

const root = resolve(import.meta.dirname, '../..');

function filesUnder(dir: string, ext = '.ts'): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...filesUnder(path, ext));
    else if (name.endsWith(ext)) out.push(path);
  }
  return out;
}

const importsOf = (file: string): string[] =>
  [
    ...readFileSync(join(root, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g),
  ].map((m) => relative(root, resolve(dirname(join(root, file)), m[1] as string)));

describe('functions/: one registered tool per file, and nothing else', () => {
  const files = filesUnder('functions').filter((f) => f !== 'functions/index.ts');

  it('holds only <family>/<family>_*.ts files: no helpers, no nesting', () => {
    const strays = files.filter((f) => {
      const parts = f.split('/');
      return parts.length !== 3 || !(parts[2] ?? '').startsWith(`${parts[1]}_`);
    });
    expect(strays).toEqual([]);
  });

  it('registers every tool file, under the name of its file, from its family folder', () => {
    const registered = new Map(Object.entries(tools).map(([key, def]) => [key, def]));
    for (const file of files) {
      const [, family, base] = file.split('/') as [string, string, string];
      const name = base.replace(/\.ts$/, '');
      const def = registered.get(name);
      expect(def, `${file} is not registered in functions/index.ts`).toBeDefined();
      expect(def?.name, `${file} defines a tool named "${def?.name}"`).toBe(name);
      expect(name.startsWith(`${family}_`), file).toBe(true);
    }
    expect(files.length).toBe(registered.size);
    for (const [key, def] of registered) expect(def.name, `registry key ${key}`).toBe(key);
  });

  it('lists the tools grouped by family, as functions/index.ts says: each family in one run', () => {
    const familyOf = new Map(files.map((f) => [f.split('/')[2]?.replace(/\.ts$/, ''), f.split('/')[1]]));
    const runs: string[] = [];
    for (const name of Object.keys(tools)) {
      const family = familyOf.get(name) ?? name;
      if (runs.at(-1) !== family) runs.push(family);
    }
    expect(runs.filter((f, i) => runs.indexOf(f) !== i)).toEqual([]);
  });

  it('is imported through the registry only: no tool, src/ or entry/ file imports a tool file', () => {
    const offenders: string[] = [];
    for (const file of [...filesUnder('functions'), ...filesUnder('src'), ...filesUnder('entry')]) {
      if (file === 'functions/index.ts') continue;
      for (const target of importsOf(file))
        if (target.startsWith('functions/') && target !== 'functions/index.ts')
          offenders.push(`${file} imports ${target}`);
    }
    expect(offenders).toEqual([]);
  });
});

const sourceDirs = ['src', 'functions', 'entry', 'scripts', 'bench', 'test'];
/** A data file (`*.data.ts`) holds literal data: long by nature, and no code to read. */
const isDataFile = (file: string) => file.endsWith('.data.ts');

describe('file sizes', () => {
  it('keeps every source file at 400 lines or fewer (data files and generated migrations aside)', () => {
    const long: string[] = [];
    for (const dir of sourceDirs) {
      for (const file of filesUnder(dir)) {
        if (isDataFile(file)) continue;
        const lines = readFileSync(join(root, file), 'utf8').split('\n').length - 1;
        if (lines > 400) long.push(`${file} (${lines})`);
      }
    }
    expect(long).toEqual([]);
  });

  it('lets a data file hold only data: type imports, constants and literals, no functions', () => {
    const code: string[] = [];
    const dataFiles = sourceDirs.flatMap((dir) => filesUnder(dir)).filter(isDataFile);
    expect(dataFiles.length).toBeGreaterThan(0);
    for (const file of dataFiles) {
      const text = readFileSync(join(root, file), 'utf8');
      const found =
        /=>|\bfunction\b|\bclass\b/.exec(text)?.[0] ??
        /^import (?!type\b).*$/m.exec(text)?.[0] ??
        /^export (?!const\b|type\b|interface\b).*$/m.exec(text)?.[0];
      if (found !== undefined) code.push(`${file}: ${found}`);
    }
    expect(code).toEqual([]);
  });
});
