// A project's run-contract artifacts: the names allowed (everything else is path_outside_root), reading the
// latest versions, and writing the next version under the project row lock.

import * as z from 'zod';
import type { ToolContext } from '../contract/define.ts';
import { ToolError } from '../contract/errors.ts';
import { and, desc, eq, sql } from '../db/orm.ts';
import { haiArtifacts, haiProposals } from '../db/schema/hai.ts';
import type { Db } from '../db/types.ts';

/** The canonical next step, changed only when the owner accepts a proposal. */
export const NEXT_STEP = 'NEXT_STEP.md';
/** The next step proposed and waiting for the owner. */
export const NEXT_STEP_PROPOSED = 'NEXT_STEP.proposed.md';

/** The run-contract artifact names; anything else (and any path) is outside the project root. */
const fixedArtifacts = new Set([
  'PROJECT_STATE.md',
  'PROMPT.md',
  'INTENT.md',
  'CODE_STATE.md',
  'BRIEFING.md',
  NEXT_STEP,
  NEXT_STEP_PROPOSED,
]);
const reportArtifact = /^(EXECUTION|VALIDATION)_REPORT_[A-Z0-9][A-Z0-9_-]{0,63}\.md$/;

/** Artifact name → version (the latest, or the one a checkpoint saw). */
export const artifactVersionsOutput = z.record(z.string(), z.int().min(1));

/** Names a tool other than propose/accept may write (NEXT_STEP*.md only go through the proposal gate). */
export const isFreelyWritable = (name: string) => name !== NEXT_STEP && name !== NEXT_STEP_PROPOSED;

/** Confines an artifact name to the allowed set; everything else is path_outside_root, saying why. */
export function confineArtifactName(name: string): string {
  if (fixedArtifacts.has(name) || reportArtifact.test(name)) return name;
  const why = name.includes('\0')
    ? 'contains NUL'
    : /%[0-9a-f]{2}/i.test(name)
      ? 'contains URL-encoded characters'
      : name.includes('\\')
        ? 'contains a backslash'
        : name.startsWith('/') || /^[a-z]:/i.test(name)
          ? 'is an absolute path'
          : name.includes('..')
            ? 'contains ".."'
            : name.includes('/')
              ? 'names a path, not an artifact'
              : 'is not a run-contract artifact name';
  throw new ToolError('path_outside_root', `Artifact name ${JSON.stringify(name)} ${why}`, {
    details: {
      name,
      reason: why,
      allowed: [...fixedArtifacts, 'EXECUTION_REPORT_<ID>.md', 'VALIDATION_REPORT_<ID>.md'],
    },
    hint: 'Use one of the run-contract artifact names exactly (e.g. PROJECT_STATE.md); paths are never accepted.',
  });
}

/** The latest version of each artifact of a project (name → version). */
export async function latestVersions(db: Db, projectId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ name: haiArtifacts.name, version: sql<number>`max(${haiArtifacts.version})::int` })
    .from(haiArtifacts)
    .where(eq(haiArtifacts.projectId, projectId))
    .groupBy(haiArtifacts.name);
  return Object.fromEntries(rows.map((r) => [r.name, r.version]));
}

export async function latestArtifact(db: Db, projectId: string, name: string) {
  const rows = await db
    .select()
    .from(haiArtifacts)
    .where(and(eq(haiArtifacts.projectId, projectId), eq(haiArtifacts.name, name)))
    .orderBy(desc(haiArtifacts.version))
    .limit(1);
  return rows[0];
}

/** Joins a next-step proposal to its text: the version of NEXT_STEP.proposed.md it wrote. */
export const proposalText = and(
  eq(haiArtifacts.projectId, haiProposals.projectId),
  eq(haiArtifacts.name, NEXT_STEP_PROPOSED),
  eq(haiArtifacts.version, haiProposals.version),
);

/**
 * A project's next step: the canonical one (the latest NEXT_STEP.md) and the proposal waiting for the owner
 * with its text, each undefined when there is none. hai_get_next_step and the owner's console read it.
 */
export async function nextStepOf(db: Db, projectId: string) {
  const accepted = await latestArtifact(db, projectId, NEXT_STEP);
  const [pending] = await db
    .select({ proposal: haiProposals, artifact: haiArtifacts })
    .from(haiProposals)
    .innerJoin(haiArtifacts, proposalText)
    .where(and(eq(haiProposals.projectId, projectId), eq(haiProposals.state, 'pending')))
    .limit(1);
  return { accepted, pending };
}

export type NextStep = Awaited<ReturnType<typeof nextStepOf>>;

/** The latest version of an artifact and its hash, not its content (up to 100 KB). */
async function artifactHead(tx: Db, projectId: string, name: string) {
  const [head] = await tx
    .select({ version: haiArtifacts.version, sha256: haiArtifacts.sha256 })
    .from(haiArtifacts)
    .where(and(eq(haiArtifacts.projectId, projectId), eq(haiArtifacts.name, name)))
    .orderBy(desc(haiArtifacts.version))
    .limit(1);
  return head;
}

async function insertArtifact(
  tx: Db,
  ctx: ToolContext,
  a: { projectId: string; name: string; content: string; sha256: string; version: number },
): Promise<number> {
  await tx.insert(haiArtifacts).values({ ...a, writtenBy: ctx.agent, writtenAt: ctx.now() });
  return a.version;
}

/** Writes the next version of an artifact; the caller holds the project row lock, so versions never race. */
export async function writeArtifact(
  tx: Db,
  ctx: ToolContext,
  projectId: string,
  name: string,
  content: string,
  sha256: string,
): Promise<number> {
  const head = await artifactHead(tx, projectId, name);
  return insertArtifact(tx, ctx, { projectId, name, content, sha256, version: (head?.version ?? 0) + 1 });
}

/** writeArtifact, unless the content equals the latest version: then nothing is written (null). */
export async function writeArtifactIfChanged(
  tx: Db,
  ctx: ToolContext,
  projectId: string,
  name: string,
  content: string,
  sha256: string,
): Promise<number | null> {
  const head = await artifactHead(tx, projectId, name);
  if (head?.sha256 === sha256) return null;
  return insertArtifact(tx, ctx, { projectId, name, content, sha256, version: (head?.version ?? 0) + 1 });
}
