// The shape of the tree that the registry depends on: one tool per file under functions/<family>/, named
// as its file and registered; family-private `_*.ts` files imported only by their own family; no source
// file past 400 lines (generated migrations aside).
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

describe('functions/: one registered tool per file', () => {
  const toolFiles = filesUnder('functions').filter((f) => {
    const name = f.split('/').at(-1) ?? '';
    return f.split('/').length === 3 && !name.startsWith('_');
  });

  it('registers every tool file, under the name of its file, from its family folder', () => {
    const registered = new Map(Object.entries(tools).map(([key, def]) => [key, def]));
    for (const file of toolFiles) {
      const [, family, base] = file.split('/') as [string, string, string];
      const name = base.replace(/\.ts$/, '');
      const def = registered.get(name);
      expect(def, `${file} is not registered in functions/index.ts`).toBeDefined();
      expect(def?.name, `${file} defines a tool named "${def?.name}"`).toBe(name);
      expect(name.startsWith(`${family}_`) || (family === 'search' && name.startsWith('search_')), file).toBe(
        true,
      );
    }
    expect(toolFiles.length).toBe(registered.size);
    for (const [key, def] of registered) expect(def.name, `registry key ${key}`).toBe(key);
  });

  it('imports a family’s private _ files only from that family', () => {
    const offenders: string[] = [];
    for (const file of [...filesUnder('functions'), ...filesUnder('src'), ...filesUnder('entry')]) {
      const family = file.startsWith('functions/') ? file.split('/')[1] : undefined;
      for (const target of importsOf(file)) {
        const parts = target.split('/');
        const base = parts.at(-1) ?? '';
        if (parts[0] !== 'functions' || !base.startsWith('_')) continue;
        if (parts[1] !== family) offenders.push(`${file} imports ${target}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('file sizes', () => {
  it('keeps every source file at 400 lines or fewer (generated migrations aside)', () => {
    const long: string[] = [];
    for (const dir of ['src', 'functions', 'entry', 'scripts', 'bench', 'test']) {
      for (const file of filesUnder(dir)) {
        const lines = readFileSync(join(root, file), 'utf8').split('\n').length - 1;
        if (lines > 400) long.push(`${file} (${lines})`);
      }
    }
    expect(long).toEqual([]);
  });
});
