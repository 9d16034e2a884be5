// Reachability (docs/contract.md "Grants and gates"), walked over the whole registry: for every tool and every
// parameter that names an object by id, the object is made, its owner chain is broken (its case deleted, or it
// is another agent's), and the call must answer not_found with nothing written: every table's row count is
// unchanged and a mutating tool's one audit row records the refusal. A tool with an id parameter and no recipe
// here fails the walk, so a tool added later is covered or the suite says what to add.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../entry/registries.ts';
import type { AgentName } from '../../src/agents/grants.ts';
import { auditMark } from '../harness/rows.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../harness/server.ts';
import {
  inputSchemaOf,
  isIdParameter,
  type Overrides,
  registryOf,
  sampleArgs,
} from '../harness/tool_args.ts';
import { makeWorld, rowCounts, type World, walkerAgents } from '../harness/world.ts';

/**
 * How an object is made unreachable:
 * - case_deleted: every id given is of the world's case after case_delete (its documents, its claims);
 * - other_agent: the object is the analyst's, the ceo asks for it (a lease belongs to its agent);
 * - never_existed: nothing can delete or hide its parent, so an id that names nothing stands in (`why`).
 */
type Hide = 'case_deleted' | 'other_agent' | 'never_existed';
interface Recipe {
  hide: Hide;
  /** Arguments beyond the sampled ones (an action that takes the id, a gate's acknowledgement). */
  args?: (w: World) => Overrides;
  why?: string;
}

/** Parameters ending in _id that name no object of the rule: ids a client chooses, or names. */
const NOT_OBJECT_IDS: Record<string, string> = {
  device_id: 'the calling device, named by the client (a project binding is checked by missing_project)',
  harness_id: 'the client harness, named by the client',
  criterion_id: 'a criterion inside the mission contract, checked against that contract',
  project_id: 'a project is bound by name and never deleted; unknown ones are missing_project',
};

const caseIds = (w: World): Overrides => ({
  case_id: w.caseId,
  like_case_id: w.caseId,
  document_id: w.documentId,
  claim_id: w.claimId,
  into_claim_id: w.claimId,
  direction_id: w.directionId,
  export_id: w.exportId,
  precedent_id: w.precedentId,
  missing_precedent_id: w.missingPrecedentId,
});

const deleted = (args?: (w: World) => Overrides): Recipe => ({ hide: 'case_deleted', args });

/** `${tool}.${parameter}` → how to make its object unreachable. */
const RECIPES: Record<string, Recipe> = {
  'appraiser_fact_extract.case_id': deleted(),
  'appraiser_fact_extract.document_id': deleted(),
  'appraiser_fact_get.case_id': deleted(),
  'appraiser_fact_record.case_id': deleted(() => ({
    action: 'reject',
    fact_id: crypto.randomUUID(),
    rationale: 'walk',
  })),
  'appraiser_fact_record.fact_id': {
    hide: 'never_existed',
    why: 'a fact hangs off its case (case_id walks the deleted one); an id naming no fact stands in',
    args: () => ({ action: 'reject', rationale: 'walk' }),
  },
  // The fact's case is live: only the document is unreachable.
  'appraiser_fact_record.document_id': deleted((w) => ({
    case_id: w.otherCaseId,
    action: 'add',
    kind: 'betterment',
    value: '1,000 ₪',
    page: 1,
    quote: 'הוועדה המקומית',
  })),
  'argument_aggregate.case_id': deleted((w) => ({
    arguments: [{ title: 'טענה', party: 'appellant', claim_ids: [w.claimId] }],
  })),
  'argument_list.case_id': deleted(),
  'case_delete.case_id': deleted(() => ({ owner_ack: true, reason: 'again' })),
  'case_final_text_get.case_id': deleted(),
  'case_get.case_id': deleted(),
  'case_update.case_id': deleted(() => ({ title: 'כותרת חדשה' })),
  'case_dates_set.case_id': deleted(() => ({ decision_due_date: '2026-06-30' })),
  'case_panel_set.case_id': deleted(() => ({ deciding_appraiser: 'יעקב אברהמי' })),
  'claim_extract.case_id': deleted(),
  'claim_extract.document_id': deleted(),
  'claim_list.case_id': deleted(),
  'claim_list.document_id': deleted(),
  'claim_record.case_id': deleted((w) => ({ action: 'confirm', claim_id: w.claimId })),
  'claim_record.claim_id': deleted(() => ({ action: 'confirm' })),
  // The claim's case is live: only the document is unreachable.
  'claim_record.document_id': deleted((w) => ({
    case_id: w.otherCaseId,
    action: 'add',
    party: 'appellant',
    kind: 'claim',
    text: 'טענה נוספת',
    page: 1,
    quote: 'הוועדה המקומית',
  })),
  'claim_record.into_claim_id': deleted((w) => ({
    action: 'merge',
    claim_id: w.claimId,
    rationale: 'כפילות',
  })),
  'document_delete.document_id': deleted(() => ({ reason: 'נקרא בטעות' })),
  'document_list.case_id': deleted(),
  'document_extract.case_id': deleted(() => ({ document_id: undefined })),
  'document_extract.document_id': deleted(() => ({ case_id: undefined })),
  'document_text_get.document_id': deleted(),
  'document_update.document_id': deleted(() => ({ title: 'כותרת' })),
  'document_upload.case_id': deleted(() => ({ corpus: 'case', text: 'מסמך חדש לתיק שנמחק' })),
  'extraction_status.document_id': deleted(),
  'reference_extract.case_id': deleted(),
  'reference_extract.document_id': deleted(),
  'reference_list.case_id': deleted(),
  'reference_list.document_id': deleted(),
  'search_case.case_id': deleted(() => ({ query: 'הוועדה' })),
  'search_internal.like_case_id': deleted(),
  // Drafting: every object hangs off the deleted case.
  'block_context_get.case_id': deleted(() => ({ block: 'background' })),
  'block_edit_apply.case_id': deleted(() => ({
    block: 'background',
    base_version: 1,
    edit: { replace: 'רקע אחר.' },
  })),
  'block_list.case_id': deleted(),
  'block_write.case_id': deleted(() => ({ blocks: [{ kind: 'background', text: 'רקע חדש.' }] })),
  'direction_approve.direction_id': deleted(() => ({ owner_ack: true, reason: 'walk' })),
  'direction_review.direction_id': deleted(() => ({ reason: 'walk' })),
  'direction_list.case_id': deleted(),
  'direction_propose.case_id': deleted(() => ({ outcome: 'rejection' })),
  'draft_bookmark_list.case_id': deleted(),
  'draft_bookmark_list.export_id': deleted(),
  'draft_export.case_id': deleted(),
  'draft_get.case_id': deleted(),
  'draft_validate.case_id': deleted(),
  'feedback_list.case_id': deleted(),
  'feedback_record.case_id': deleted(),
  'final_version_ingest.case_id': deleted(() => ({ text: 'החלטה סופית.', owner_ack: true, reason: 'walk' })),
  'outcome_set.case_id': deleted(() => ({ outcome: 'rejection', owner_ack: true, reason: 'walk' })),
  'workflow_status.case_id': deleted(),
  'hai_bind_project.case_id': deleted(() => ({
    project_id: 'erer-walk-26',
    mount_path: '/work/erer-walk-26',
    owner_ack: true,
    reason: 'walk',
  })),
  // The precedent library: a deleted case's document is no document of any corpus, and the case's precedents
  // and missing precedents went with it.
  'citation_extract.case_id': deleted(),
  'citation_extract.document_id': deleted(),
  'citation_incoming_list.document_id': deleted(),
  'citation_list.document_id': deleted(),
  'halacha_extract.document_id': deleted(),
  'halacha_list.document_id': deleted(),
  'halacha_review.halacha_id': {
    hide: 'never_existed',
    why: 'holdings are of library and internal documents, which no case holds and nothing deletes',
    args: () => ({ decision: 'approve', owner_ack: true, reason: 'walk' }),
  },
  'halacha_record.halacha_id': {
    hide: 'never_existed',
    why: 'holdings are of library and internal documents, which no case holds and nothing deletes',
    args: () => ({ action: 'reject', rationale: 'walk' }),
  },
  'halacha_record.document_id': deleted(() => ({ action: 'add', page: 1, quote: 'הוועדה' })),
  'internal_decision_get.document_id': deleted(),
  'library_get.document_id': deleted(),
  'library_metadata_extract.document_id': deleted(),
  'style_corpus_enrich.document_id': deleted(),
  'missing_precedent_close.missing_precedent_id': deleted(() => ({
    resolution: 'dismissed',
    reason: 'the walk',
  })),
  // The missing precedent is open and of no case: only the document is unreachable.
  'missing_precedent_close.document_id': deleted((w) => ({
    missing_precedent_id: w.openMissingPrecedentId,
    resolution: 'found',
    reason: 'the walk',
  })),
  'missing_precedent_create.case_id': deleted(() => ({ citation: 'עע"מ 5555/16 אלמוני' })),
  'missing_precedent_list.case_id': deleted(),
  'missing_precedent_review.case_id': deleted(() => ({ reason: 'the walk' })),
  'precedent_attach.case_id': deleted(() => ({ document_id: undefined, page: undefined })),
  // The case is live: only the quoted document is unreachable.
  'precedent_attach.document_id': deleted((w) => ({ case_id: w.otherCaseId, page: 1 })),
  'precedent_detach.precedent_id': deleted(),
  'precedent_list.case_id': deleted(),
  'hai_check_activity.lease_id': { hide: 'other_agent', args: (w) => ({ lease_id: w.leaseId }) },
  'hai_get_contract.lease_id': { hide: 'other_agent', args: (w) => ({ lease_id: w.leaseId }) },
  'hai_proof.lease_id': {
    hide: 'other_agent',
    args: (w) => ({ lease_id: w.leaseId, criterion_id: 'walked', checked: 'x', result: 'pass' }),
  },
  'hai_authorize_session.mission_id': {
    hide: 'never_existed',
    why: 'missions are the team’s: no agent owns one and nothing deletes one (closing is a state)',
  },
  'hai_close_mission.mission_id': {
    hide: 'never_existed',
    why: 'as hai_authorize_session',
    args: () => ({ outcome: 'abandoned', owner_ack: true, reason: 'walk' }),
  },
  'hai_park_item.mission_id': { hide: 'never_existed', why: 'as hai_authorize_session' },
  'hai_confirm_criterion.mission_id': {
    hide: 'never_existed',
    why: 'owner-only, and missions are the team’s: only an unknown one is unreachable',
    args: () => ({ criterion_id: 'walked', reason: 'walk' }),
  },
  'hai_open_mission.case_id': deleted(),
  'hai_recontract.mission_id': {
    hide: 'never_existed',
    why: 'as hai_authorize_session',
    args: () => ({ owner_ack: true, reason: 'walk' }),
  },
  'hai_revoke_session.lease_id': {
    hide: 'never_existed',
    why: 'owner-only: the owner may revoke any agent’s lease, so only an unknown one is unreachable',
  },
  'approval_review.approval_id': {
    hide: 'never_existed',
    why: 'owner-only: the owner decides every agent’s request, so only an unknown one is unreachable',
  },
};

const registry = registryOf(tools, 'ack');

/** Every (tool, id parameter) pair of the registry. */
const pairs = registry.tools.flatMap((tool) =>
  Object.keys(inputSchemaOf(tool).properties ?? {})
    .filter((p) => isIdParameter(p) && !(p in NOT_OBJECT_IDS))
    .map((param) => ({ tool, param, key: `${tool.def.name}.${param}` })),
);

describe('reachability, walked over the registry', () => {
  let s: TestServer;
  let w: World;
  beforeAll(async () => {
    s = await startTestServer({ agents: await walkerAgents() });
    w = await makeWorld(s);
    expectOk(await s.call('ceo', 'case_delete', { case_id: w.caseId, owner_ack: true, reason: 'walk' }));
  }, 120_000);
  afterAll(async () => s?.close());

  it('every id parameter has a recipe, and every recipe a parameter', () => {
    const missing = pairs.filter((p) => RECIPES[p.key] === undefined).map((p) => p.key);
    expect(
      missing,
      `Add a reachability recipe to test/contract/reachability.test.ts RECIPES for: ${missing.join(', ')}`,
    ).toEqual([]);
    const stale = Object.keys(RECIPES).filter((k) => !pairs.some((p) => p.key === k));
    expect(stale, 'recipes for parameters that no longer exist').toEqual([]);
  });

  it.each(pairs)('$key: not_found, nothing written', async ({ tool, param, key }) => {
    const recipe = RECIPES[key];
    if (recipe === undefined) throw new Error(`no reachability recipe for ${key}: add one to RECIPES`);
    // The parameter under test names the hidden object; other required ids name the same chain.
    const id = recipe.hide === 'case_deleted' ? caseIds(w)[param] : crypto.randomUUID();
    const args = sampleArgs(
      tool,
      { ...recipe.args?.(w), ...(recipe.hide === 'other_agent' ? {} : { [param]: id }) },
      recipe.hide === 'case_deleted' ? caseIds(w) : {},
    );
    const caller: AgentName = recipe.hide === 'other_agent' ? 'ceo' : 'analyst';
    const before = await rowCounts(s.db.db);
    const audit = await auditMark(s.db.db);
    const env =
      tool.def.ownerOnly === true
        ? await import('../harness/owner.ts').then(({ callAsOwner }) =>
            callAsOwner(s, 'dana', tool.def.name, args, { ownerGate: 'ack' }),
          )
        : await s.call(caller, tool.def.name, args);
    expect(errorCode(env), `${key} with ${JSON.stringify(args)} answered ${JSON.stringify(env)}`).toBe(
      'not_found',
    );
    const after = await rowCounts(s.db.db);
    // The owner principal is created on first use (callAsOwner): not the tool's write.
    expect({ ...after, owners: 0 }).toEqual({ ...before, owners: 0 });
    const rows = await audit();
    expect(rows.length).toBeLessThanOrEqual(tool.def.mutates === false ? 0 : 1);
    for (const row of rows)
      expect(row).toMatchObject({ tool: tool.def.name, outcome: 'error', errorCode: 'not_found' });
  });
});
