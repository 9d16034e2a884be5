// The documentation stays true: docs/tools.md and the generated blocks of docs/contract.md are what
// `npm run docs` would write now, docs/contract.md keeps the section headings code comments cite, and the
// repo's Markdown links only to files inside the repo.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACT_MD, generateDocs, root } from '../../scripts/docs/docs.ts';

const read = (path: string) => readFile(join(root, path), 'utf8');

describe('generated docs', () => {
  it('docs/tools.md and the generated blocks of docs/contract.md are up to date', async () => {
    const { files } = await generateDocs();
    const stale: string[] = [];
    for (const [path, text] of Object.entries(files)) {
      if ((await read(path).catch(() => null)) !== text) stale.push(path);
    }
    expect(stale, `stale: ${stale.join(', ')} — run \`npm run docs\` and commit the result`).toEqual([]);
  });

  it('docs/contract.md has the sections code comments cite', async () => {
    const headings = [...(await read(CONTRACT_MD)).matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual([
      'Envelope',
      'Names',
      'Arguments',
      'Retries',
      'Extraction',
      'Lists',
      'Grants and gates',
      'Declared behaviour',
      'HTTP errors',
      'Error codes',
    ]);
  });
});

describe('links', () => {
  const documents = ['README.md', 'docs/contract.md', 'docs/tools.md'];

  it.each(documents)('%s links only to files inside the repo that exist', async (doc) => {
    const text = await read(doc);
    const problems: string[] = [];
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = (m[1] ?? '').split('#')[0] ?? '';
      if (target === '' || /^[a-z]+:/i.test(target)) continue;
      const abs = resolve(root, dirname(doc), target);
      const rel = relative(root, abs);
      if (rel.startsWith('..')) problems.push(`${m[1]} points outside the repo`);
      else if (!existsSync(abs)) problems.push(`${m[1]} does not exist`);
    }
    expect(problems).toEqual([]);
  });

  // Spelled in pieces, so that searching the repo for these names finds only real citations.
  const outside = new RegExp(
    ['\\.\\./shared', 'DESIGN\\.md', ['INV', 'TOOL\\d'].join('-'), '\\bseeds?\\s+0\\d\\d'].join('|'),
    'i',
  );

  it.each(documents)('%s does not cite documents that are not in the repo', async (doc) => {
    expect(await read(doc)).not.toMatch(outside);
  });
});
