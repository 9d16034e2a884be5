// The finite contract of a mission: its terms as hai_open_mission and hai_recontract take them, the checks
// that make it finite and verifiable, writing a version, the scope rule, and the contract as tools return it.
import * as z from 'zod';
import type { ToolContext } from '../contract/define.ts';
import { invalidArgs, one } from '../contract/errors.ts';
import { sha256Hex, stableStringify } from '../contract/hash.ts';
import { type ContractCriterion, type HaiContractRow, haiContracts } from '../db/schema/hai.ts';
import type { Db } from '../db/types.ts';
import { criterionCheckInput } from '../review/criteria.ts';

/** Bounds of a contract's terms: the inputs refuse more, so every stored version keeps within them. */
export const MAX_SCOPE_LABELS = 50;
export const MAX_CRITERIA = 30;
export const MAX_SESSIONS = 20;
const MAX_CONTRACT_DAYS = 366;

/** The finite contract's terms, shared by hai_open_mission and hai_recontract. */
export const contractInput = {
  goal: z.string().trim().min(1).max(2000).describe('What the mission must achieve'),
  in_scope: z
    .array(z.string().trim().min(1).max(200))
    .min(1)
    .max(MAX_SCOPE_LABELS)
    .describe(
      'Activity labels allowed, e.g. ["analysis", "research:case-law"]; a label covers its ":" extensions',
    ),
  out_of_scope: z
    .array(z.string().trim().min(1).max(200))
    .max(MAX_SCOPE_LABELS)
    .optional()
    .describe('Activity labels excluded (checked first)'),
  criteria: z
    .array(
      z.object({
        id: z
          .string()
          .trim()
          .regex(/^[a-z0-9][a-z0-9_-]{0,49}$/, 'lower-case letters, digits, "_" or "-"')
          .describe('Short criterion id, e.g. "claims-mapped"'),
        description: z.string().trim().min(1).max(1000).describe('What must be true'),
        verification: z
          .string()
          .trim()
          .min(1)
          .max(1000)
          .describe('How it is verified: what is checked, by whom'),
        check: criterionCheckInput.optional(),
      }),
    )
    .min(1)
    .max(MAX_CRITERIA)
    .describe('Acceptance criteria, each with how it is verified'),
  expires_at: z.iso.datetime({ offset: true }).describe(`Expiry, at most ${MAX_CONTRACT_DAYS} days ahead`),
  max_sessions: z
    .number()
    .int()
    .min(1)
    .max(MAX_SESSIONS)
    .optional()
    .describe('Live sessions allowed at once (default 2)'),
};

export interface ContractTerms {
  goal: string;
  inScope: string[];
  outOfScope: string[];
  criteria: ContractCriterion[];
  expiresAt: Date;
  maxSessions: number;
}

/** The finite-contract gate: criteria with distinct ids and an expiry in the (bounded) future. */
export function validContract(
  input: {
    goal: string;
    in_scope: string[];
    out_of_scope?: string[] | undefined;
    criteria: ContractCriterion[];
    expires_at: string;
    max_sessions?: number | undefined;
  },
  now: Date,
): ContractTerms {
  const issues: { path: string; message: string }[] = [];
  const expiresAt = new Date(input.expires_at);
  if (expiresAt.getTime() <= now.getTime()) {
    issues.push({ path: 'expires_at', message: 'must be in the future' });
  } else if (expiresAt.getTime() - now.getTime() > MAX_CONTRACT_DAYS * 86_400_000) {
    issues.push({ path: 'expires_at', message: `must be at most ${MAX_CONTRACT_DAYS} days ahead` });
  }
  const seen = new Set<string>();
  for (const [i, c] of input.criteria.entries()) {
    if (seen.has(c.id))
      issues.push({ path: `criteria.${i}.id`, message: `duplicate criterion id "${c.id}"` });
    seen.add(c.id);
  }
  if (issues.length > 0) {
    throw invalidArgs(
      issues,
      'A contract needs at least one criterion (each with how it is verified, distinct ids) and an expiry in the future.',
      { message: 'The contract is not a valid finite contract' },
    );
  }
  const norm = (labels: string[] | undefined) => [...new Set((labels ?? []).map(normaliseActivity))];
  return {
    goal: input.goal,
    inScope: norm(input.in_scope),
    outOfScope: norm(input.out_of_scope),
    criteria: input.criteria.map((c) => ({
      id: c.id,
      description: c.description,
      verification: c.verification,
      ...(c.check === undefined ? {} : { check: c.check }),
    })),
    expiresAt,
    maxSessions: input.max_sessions ?? 2,
  };
}

/** Identifies a contract's terms, so a retried open or recontract is recognised after the replay window. */
export const termsHash = (t: ContractTerms) =>
  sha256Hex(stableStringify({ ...t, expiresAt: t.expiresAt.toISOString() }));

/**
 * Writes one version of a mission's contract from validated terms: v1 from hai_open_mission, the next from
 * hai_recontract (which also records the owner's reason or the break-glass marker).
 */
export async function writeContract(
  tx: Db,
  ctx: ToolContext,
  next: {
    missionId: string;
    version: number;
    terms: ContractTerms;
    termsSha256: string;
    createdAt: Date;
    reason?: string | null;
    breakGlass?: boolean;
    breakGlassMarker?: string | null;
  },
): Promise<HaiContractRow> {
  const { terms, ...columns } = next;
  const rows = await tx
    .insert(haiContracts)
    .values({
      ...columns,
      goal: terms.goal,
      inScope: terms.inScope,
      outOfScope: terms.outOfScope,
      criteria: terms.criteria,
      expiresAt: terms.expiresAt,
      maxSessions: terms.maxSessions,
      createdBy: ctx.agent,
    })
    .returning();
  return one(rows, 'contract insert');
}

export const normaliseActivity = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/** The scope rule: out_of_scope first, then in_scope; a label matches itself and its ":" extensions. */
export function scopeOf(
  contract: Pick<HaiContractRow, 'inScope' | 'outOfScope'>,
  activity: string,
): { in_scope: boolean; matched: string | null; rule: 'out_of_scope' | 'in_scope' | 'not_listed' } {
  const act = normaliseActivity(activity);
  const matches = (label: string) => act === label || act.startsWith(`${label}:`);
  const out = contract.outOfScope.find(matches);
  if (out !== undefined) return { in_scope: false, matched: out, rule: 'out_of_scope' };
  const inside = contract.inScope.find(matches);
  if (inside !== undefined) return { in_scope: true, matched: inside, rule: 'in_scope' };
  return { in_scope: false, matched: null, rule: 'not_listed' };
}

export const criterionOutput = z.object({
  id: z.string().describe('The criterion id hai_proof takes'),
  description: z.string().describe('What must be true'),
  verification: z.string().describe('How it is verified'),
  check: criterionCheckInput.nullable().optional().describe('The check the server runs, if any'),
});

const scopeLabels = z.array(z.string()).max(MAX_SCOPE_LABELS);

/** One version of a mission's contract, as the tools return it. */
export const contractOutput = z.object({
  version: z.int().min(1).describe('The contract version (sessions are authorized on the current one)'),
  goal: z.string().describe('What the mission must achieve'),
  in_scope: scopeLabels.describe(
    'Activity labels the mission allows (normalised: lower case, single spaces)',
  ),
  out_of_scope: scopeLabels.describe('Activity labels outside the mission, checked before in_scope'),
  criteria: z.array(criterionOutput).max(MAX_CRITERIA).describe('Acceptance criteria'),
  expires_at: z.iso.datetime().describe('When the mission expires'),
  max_sessions: z.int().min(1).max(MAX_SESSIONS).describe('How many session leases may be live at once'),
  created_by: z.string().describe('The agent that wrote this version'),
  created_at: z.iso.datetime().describe('When this version was written'),
  break_glass: z.boolean().describe('Written in an emergency without the owner’s acknowledgement'),
  break_glass_marker: z.string().nullable().describe('The incident reference of a break-glass version'),
});

export const contractView = (c: HaiContractRow): z.input<typeof contractOutput> => ({
  version: c.version,
  goal: c.goal,
  in_scope: c.inScope,
  out_of_scope: c.outOfScope,
  criteria: c.criteria,
  expires_at: c.expiresAt.toISOString(),
  max_sessions: c.maxSessions,
  created_by: c.createdBy,
  created_at: c.createdAt.toISOString(),
  break_glass: c.breakGlass,
  break_glass_marker: c.breakGlassMarker,
});
