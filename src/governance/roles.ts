// Who does which governance step, for hints and next actions (docs/contract.md "Grants and gates"): a text
// names a tool only when the caller holds it (ctx.holds), and otherwise says which agent to hand the step to.
import type { ToolContext } from '../contract/define.ts';

const workers = ['analyst', 'researcher', 'writer', 'qa'] as const;
const everyone = ['ceo', ...workers] as const;

/**
 * The agents granted each tool that a hai hint or next action names, as agents/*.md grant them (a test
 * checks this table against those files, so it cannot drift from the grants).
 */
export const grantedTo = {
  hai_bind_project: ['ceo'],
  hai_open_mission: ['ceo'],
  hai_recontract: ['ceo'],
  hai_close_mission: ['ceo'],
  hai_accept_next_step: ['ceo'],
  hai_set_focus: ['ceo'],
  hai_status: everyone,
  hai_get_next_step: everyone,
  hai_propose_next_step: everyone,
  hai_authorize_session: everyone,
  hai_get_contract: workers,
  hai_proof: workers,
} as const satisfies Record<string, readonly string[]>;

export type HaiStep = keyof typeof grantedTo;

/** The agents to hand a step to, for a sentence: "the ceo", "the analyst, researcher, writer or qa". */
export function whoDoes(tool: HaiStep): string {
  const names: readonly string[] = grantedTo[tool];
  const last = names[names.length - 1] ?? 'owner';
  return names.length <= 1 ? `the ${last}` : `the ${names.slice(0, -1).join(', ')} or ${last}`;
}

export type Holds = Pick<ToolContext, 'holds'>;

/**
 * One step of a hint, lower case: "<does> with <tool><after>" when the caller holds the tool, else
 * "ask <who> to <does><after>" (the tool unnamed). `does` is a verb phrase: "bind the project".
 */
export const use = (ctx: Holds, tool: HaiStep, does: string, after = ''): string =>
  ctx.holds(tool) ? `${does} with ${tool}${after}` : `ask ${whoDoes(tool)} to ${does}${after}`;

/** A hint sentence: the first letter upper case, a final period. */
export const sentence = (text: string): string =>
  `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
