import * as z from 'zod';
import { caseFieldsKey, caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { panelOutput, panelView, refuseArchived, setPanel } from '../../src/cases/schedule.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { panelRoles } from '../../src/db/schema/cases.ts';

const name = (what: string) => z.string().trim().min(2).max(200).describe(what);

export const case_panel_set = defineTool({
  name: 'case_panel_set',
  title: 'Set a case’s panel and deciding appraiser',
  description:
    'Sets the panel that signs the decision (one chair, members; titles go under the signatures in ' +
    'the Word export) and/or the deciding appraiser (שמאי מכריע). members replaces the panel. Check a ' +
    'case_get candidate before setting it.',
  input: {
    case_id: caseIdInput,
    members: z
      .array(
        z.object({
          name: name('As signed'),
          role: z.enum(panelRoles).describe('One chair'),
          title: z
            .string()
            .trim()
            .min(2)
            .max(100)
            .optional()
            .describe('Under the signature if not the role’s, e.g. «חברת הוועדה»'),
          signs: z.boolean().optional().describe('Default true'),
        }),
      )
      .min(1)
      .max(9)
      .optional()
      .describe('The whole panel'),
    deciding_appraiser: name('שמאי מכריע').optional(),
    clear_deciding_appraiser: z.boolean().optional().describe('Empties the name'),
  },
  output: z.object({
    case_id: z.uuid(),
    case_number: z.string(),
    panel: panelOutput,
    changed: z.array(z.enum(['members', 'deciding_appraiser'])).max(2),
  }),
  mutates: 'write',
  idempotencyKey: caseFieldsKey,
  setSemantics: true,
  async run({ ctx, input }) {
    const clearing = input.clear_deciding_appraiser === true;
    if (clearing && input.deciding_appraiser !== undefined)
      throw invalidArg('clear_deciding_appraiser', 'deciding_appraiser given and cleared at once');
    const changed: ('members' | 'deciding_appraiser')[] = [];
    if (input.members !== undefined) {
      const chairs = input.members.filter((m) => m.role === 'chair').length;
      if (chairs !== 1) throw invalidArg('members', `a panel has exactly one chair (found ${chairs})`);
      const names = input.members.map((m) => m.name);
      if (new Set(names).size !== names.length) throw invalidArg('members', 'a member is listed twice');
      changed.push('members');
    }
    if (input.deciding_appraiser !== undefined || clearing) changed.push('deciding_appraiser');
    if (changed.length === 0)
      throw invalidArg('(arguments)', 'give members, deciding_appraiser or clear_deciding_appraiser');
    const c = await loadLiveCase(ctx.db, input.case_id);
    refuseArchived(c);
    const panel = panelView(await setPanel(ctx.db, c.id, input, ctx.agent, ctx.now()));
    return ok(
      { case_id: c.id, case_number: c.caseNumber, panel, changed },
      `Case ${c.caseNumber}: ${changed.join(' and ')} set`,
    );
  },
});
