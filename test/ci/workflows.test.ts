/**
 * The GitHub Actions workflows (.github/workflows): each valid against the workflow schema
 * (@action-validator/core, pinned: the SchemaStore schema compiled to WebAssembly), and each doing what README
 * "Deploy" says: ci runs .ci/run, preview brings a preview up on opened/synchronised pull requests and down
 * on closed ones and comments its URL, deploy runs npm run deploy on pushes to main.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateWorkflow } from '@action-validator/core';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const dir = fileURLToPath(new URL('../../.github/workflows/', import.meta.url));
const files = readdirSync(dir).filter((f) => f.endsWith('.yml'));
const text = (name: string) => readFileSync(join(dir, name), 'utf8');
type Workflow = {
  on: Record<string, { types?: string[]; branches?: string[] } | null>;
  jobs: Record<string, { if?: string; steps: { run?: string; uses?: string; with?: { script?: string } }[] }>;
};
const workflow = (name: string) => parse(text(name)) as Workflow;
const runs = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps.map((s) => s.run ?? ''));

describe('GitHub Actions workflows', () => {
  it('are the three README "Deploy" describes', () => {
    expect(files.sort()).toEqual(['ci.yml', 'deploy.yml', 'preview.yml']);
  });

  it.each(files)('%s is valid against the workflow schema', (name) => {
    expect(validateWorkflow(text(name)).errors).toEqual([]);
  });

  it('the validator does catch a broken workflow (a job without runs-on, an unknown trigger)', () => {
    const broken = 'on: { pul_request: {} }\njobs:\n  x:\n    steps:\n      - run: echo hi\n';
    expect(validateWorkflow(broken).errors.length).toBeGreaterThan(0);
  });

  it('ci runs .ci/run with PostgreSQL and Redis beside it', () => {
    expect(runs(workflow('ci.yml'))).toContain('bash .ci/run');
    expect(text('ci.yml')).toMatch(/image: postgres:15[\s\S]*image: redis:7/);
  });

  it('preview: up on opened/synchronize (and comments the URL), down on closed', () => {
    const w = workflow('preview.yml');
    expect(w.on.pull_request?.types).toEqual(expect.arrayContaining(['opened', 'synchronize', 'closed']));
    expect(w.jobs.up?.if).toContain("!= 'closed'");
    expect(w.jobs.down?.if).toContain("== 'closed'");
    expect(w.jobs.up?.steps.map((s) => s.run)).toContain('npm run preview -- up "$BRANCH"');
    expect(w.jobs.down?.steps.map((s) => s.run)).toContain('npm run preview -- down "$BRANCH"');
    const comment = w.jobs.up?.steps.find((s) => s.uses?.startsWith('actions/github-script'));
    expect(comment?.with?.script).toContain('createComment');
    // The branch name reaches the shell through the environment only (no ${{ }} inside a run line).
    for (const line of runs(w)) expect(line).not.toContain('${{');
  });

  it('deploy runs npm run deploy on pushes to main, one at a time', () => {
    const w = workflow('deploy.yml');
    expect(w.on.push?.branches).toEqual(['main']);
    expect(runs(w)).toContain('npm run deploy');
    expect(text('deploy.yml')).toContain('cancel-in-progress: false');
  });
});
