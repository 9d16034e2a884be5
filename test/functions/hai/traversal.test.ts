// Artifact names are confined: traversal, absolute paths, backslashes, NUL, URL-encoded traversal and any
// name outside the run-contract set are path_outside_root, for reads and for writes, and nothing is written.
// A NUL never reaches the tool: the kernel refuses text that cannot be stored (invalid_args) first.
import { expect, it } from 'vitest';
import type { hai_read_artifacts } from '../../../functions/hai/hai_read_artifacts.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { haiArtifacts, haiCheckpoints } from '../../../src/db/schema/hai.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { bindProject, DB_STACKS, forEachStack } from './_hai.ts';

/** The code a form gets: a NUL is the kernel's refusal (docs/contract.md "Arguments"), the rest the tool's. */
const expected = (name: string) => (name.includes('\u0000') ? 'invalid_args' : 'path_outside_root');

const forms: [string, string][] = [
  ['parent', '../PROJECT_STATE.md'],
  ['deep parent', '../../../../etc/passwd'],
  ['bare dot-dot', '..'],
  ['dot-dot inside', 'NEXT_STEP.md/../../secret.md'],
  ['legacy folder escape', 'Projek-Managment/../../secret.md'],
  ['dot segment', './PROJECT_STATE.md'],
  ['absolute', '/etc/passwd'],
  ['absolute to a real name', '/PROJECT_STATE.md'],
  ['backslash traversal', '..\\..\\windows\\win.ini'],
  ['windows drive', 'C:\\Windows\\system32\\config'],
  ['windows drive, slashes', 'C:/Windows/win.ini'],
  ['UNC path', '\\\\server\\share\\PROJECT_STATE.md'],
  ['NUL truncation', 'PROJECT_STATE.md\u0000.txt'],
  ['NUL alone', '\u0000'],
  ['URL-encoded dot-dot-slash', '%2e%2e%2fPROJECT_STATE.md'],
  ['URL-encoded slash only', '..%2fPROJECT_STATE.md'],
  ['double URL-encoded', '%252e%252e%252fetc%252fpasswd'],
  ['URL-encoded backslash', '..%5c..%5cwin.ini'],
  ['file URL', 'file:///etc/passwd'],
  ['home directory', '~/.ssh/id_rsa'],
  ['overlong dots', '....//PROJECT_STATE.md'],
  ['fullwidth dots and slash', '\uff0e\uff0e\uff0fPROJECT_STATE.md'],
  ['report name with traversal', 'EXECUTION_REPORT_../../x.md'],
  ['wrong case', 'project_state.md'],
  ['not an artifact', 'notes.txt'],
  ['trailing slash', 'PROJECT_STATE.md/'],
];

forEachStack('hai artifact names', DB_STACKS, (env) => {
  it(`refuses ${forms.length} traversal and outside-the-set forms on read (path_outside_root)`, async () => {
    const { s } = env();
    const project = await bindProject(s);
    for (const [what, name] of forms) {
      const res = await s.call('analyst', 'hai_read_artifacts', { project_id: project, names: [name] });
      expect(errorCode(res), what).toBe(expected(name));
      if (expected(name) === 'path_outside_root')
        expect(res.ok ? null : res.error.details?.name, what).toBe(name);
    }
    // One bad name among good ones still refuses the whole call.
    expect(
      errorCode(
        await s.call('analyst', 'hai_read_artifacts', {
          project_id: project,
          names: ['BRIEFING.md', '../x'],
        }),
      ),
    ).toBe('path_outside_root');
  });

  it(`refuses the same ${forms.length} forms on write (hai_checkpoint) and writes nothing`, async () => {
    const { s } = env();
    const project = await bindProject(s);
    for (const [what, name] of forms) {
      const res = await s.call('analyst', 'hai_checkpoint', {
        project_id: project,
        label: 'escape',
        summary: 's',
        artifacts: [{ name, content: 'owned' }],
      });
      expect(errorCode(res), what).toBe(expected(name));
    }
    expect(await s.db.db.select().from(haiArtifacts)).toEqual([]);
    expect(await s.db.db.select().from(haiCheckpoints)).toEqual([]);
  });

  it('accepts every run-contract name and report names, and keeps versions', async () => {
    const { s } = env();
    const project = await bindProject(s);
    const names = [
      'PROJECT_STATE.md',
      'PROMPT.md',
      'INTENT.md',
      'CODE_STATE.md',
      'BRIEFING.md',
      'EXECUTION_REPORT_NEXT_STEP.md',
      'VALIDATION_REPORT_NEXT_STEP.md',
    ];
    expectOk(
      await s.call('analyst', 'hai_checkpoint', {
        project_id: project,
        label: 'all',
        summary: 's',
        artifacts: names.map((name) => ({ name, content: `# ${name}` })),
      }),
    );
    const read = expectOk<ToolData<typeof hai_read_artifacts>>(
      await s.call('analyst', 'hai_read_artifacts', {
        project_id: project,
        names: [...names, 'NEXT_STEP.md'],
      }),
    );
    expect(read.artifacts.map((a) => [a.name, a.version, a.content])).toEqual(
      names.map((n) => [n, 1, `# ${n}`]),
    );
    expect(read.missing).toEqual(['NEXT_STEP.md']);
  });
});
