import type { AnyTool } from '../src/contract/define.ts';
import { appraiser_fact_extract } from './appraiser/appraiser_fact_extract.ts';
import { appraiser_fact_get } from './appraiser/appraiser_fact_get.ts';
import { appraiser_fact_record } from './appraiser/appraiser_fact_record.ts';
import { approval_review } from './approval/approval_review.ts';
import { argument_aggregate } from './argument/argument_aggregate.ts';
import { argument_list } from './argument/argument_list.ts';
import { block_context_get } from './block/block_context_get.ts';
import { block_edit_apply } from './block/block_edit_apply.ts';
import { block_list } from './block/block_list.ts';
import { block_write } from './block/block_write.ts';
import { case_create } from './case/case_create.ts';
import { case_dates_set } from './case/case_dates_set.ts';
import { case_delete } from './case/case_delete.ts';
import { case_final_text_get } from './case/case_final_text_get.ts';
import { case_get } from './case/case_get.ts';
import { case_list } from './case/case_list.ts';
import { case_panel_set } from './case/case_panel_set.ts';
import { case_update } from './case/case_update.ts';
import { citation_extract } from './citation/citation_extract.ts';
import { citation_incoming_list } from './citation/citation_incoming_list.ts';
import { citation_list } from './citation/citation_list.ts';
import { claim_extract } from './claim/claim_extract.ts';
import { claim_list } from './claim/claim_list.ts';
import { claim_record } from './claim/claim_record.ts';
import { direction_approve } from './direction/direction_approve.ts';
import { direction_list } from './direction/direction_list.ts';
import { direction_propose } from './direction/direction_propose.ts';
import { direction_review } from './direction/direction_review.ts';
import { document_delete } from './document/document_delete.ts';
import { document_extract } from './document/document_extract.ts';
import { document_list } from './document/document_list.ts';
import { document_text_get } from './document/document_text_get.ts';
import { document_update } from './document/document_update.ts';
import { document_upload } from './document/document_upload.ts';
import { draft_bookmark_list } from './draft/draft_bookmark_list.ts';
import { draft_export } from './draft/draft_export.ts';
import { draft_get } from './draft/draft_get.ts';
import { draft_validate } from './draft/draft_validate.ts';
import { extraction_run } from './extraction/extraction_run.ts';
import { extraction_status } from './extraction/extraction_status.ts';
import { feedback_list } from './feedback/feedback_list.ts';
import { feedback_record } from './feedback/feedback_record.ts';
import { final_version_ingest } from './final/final_version_ingest.ts';
import { hai_accept_next_step } from './hai/hai_accept_next_step.ts';
import { hai_authorize_session } from './hai/hai_authorize_session.ts';
import { hai_bind_project } from './hai/hai_bind_project.ts';
import { hai_check_activity } from './hai/hai_check_activity.ts';
import { hai_checkpoint } from './hai/hai_checkpoint.ts';
import { hai_close_mission } from './hai/hai_close_mission.ts';
import { hai_confirm_criterion } from './hai/hai_confirm_criterion.ts';
import { hai_get_contract } from './hai/hai_get_contract.ts';
import { hai_get_next_step } from './hai/hai_get_next_step.ts';
import { hai_health } from './hai/hai_health.ts';
import { hai_inbox_list } from './hai/hai_inbox_list.ts';
import { hai_open_mission } from './hai/hai_open_mission.ts';
import { hai_park } from './hai/hai_park.ts';
import { hai_park_item } from './hai/hai_park_item.ts';
import { hai_proof } from './hai/hai_proof.ts';
import { hai_propose_next_step } from './hai/hai_propose_next_step.ts';
import { hai_read_artifacts } from './hai/hai_read_artifacts.ts';
import { hai_recontract } from './hai/hai_recontract.ts';
import { hai_recover } from './hai/hai_recover.ts';
import { hai_revoke_session } from './hai/hai_revoke_session.ts';
import { hai_set_focus } from './hai/hai_set_focus.ts';
import { hai_status } from './hai/hai_status.ts';
import { halacha_extract } from './halacha/halacha_extract.ts';
import { halacha_list } from './halacha/halacha_list.ts';
import { halacha_record } from './halacha/halacha_record.ts';
import { halacha_review } from './halacha/halacha_review.ts';
import { internal_decision_add } from './internal/internal_decision_add.ts';
import { internal_decision_get } from './internal/internal_decision_get.ts';
import { internal_decision_list } from './internal/internal_decision_list.ts';
import { library_add } from './library/library_add.ts';
import { library_get } from './library/library_get.ts';
import { library_list } from './library/library_list.ts';
import { library_metadata_extract } from './library/library_metadata_extract.ts';
import { metrics_get } from './metrics/metrics_get.ts';
import { missing_precedent_close } from './missing_precedent/missing_precedent_close.ts';
import { missing_precedent_create } from './missing_precedent/missing_precedent_create.ts';
import { missing_precedent_list } from './missing_precedent/missing_precedent_list.ts';
import { missing_precedent_review } from './missing_precedent/missing_precedent_review.ts';
import { outcome_set } from './outcome/outcome_set.ts';
import { precedent_attach } from './precedent/precedent_attach.ts';
import { precedent_detach } from './precedent/precedent_detach.ts';
import { precedent_list } from './precedent/precedent_list.ts';
import { reference_extract } from './reference/reference_extract.ts';
import { reference_list } from './reference/reference_list.ts';
import { search_case } from './search/search_case.ts';
import { search_internal } from './search/search_internal.ts';
import { search_library } from './search/search_library.ts';
import { search_style } from './search/search_style.ts';
import { style_corpus_enrich } from './style/style_corpus_enrich.ts';
import { style_corpus_pending_list } from './style/style_corpus_pending_list.ts';
import { workflow_status } from './workflow/workflow_status.ts';

/**
 * Every tool the server offers, listed explicitly (no discovery): one line per tool, grouped by family, the
 * families in the order a case moves through them (a test keeps the grouping).
 */
export const tools = {
  approval_review,
  case_create,
  case_list,
  case_get,
  case_update,
  case_dates_set,
  case_panel_set,
  case_delete,
  case_final_text_get,
  extraction_status,
  extraction_run,
  hai_health,
  hai_status,
  hai_get_next_step,
  hai_read_artifacts,
  hai_park,
  hai_inbox_list,
  hai_set_focus,
  hai_propose_next_step,
  hai_accept_next_step,
  hai_checkpoint,
  hai_recover,
  hai_open_mission,
  hai_bind_project,
  hai_authorize_session,
  hai_get_contract,
  hai_check_activity,
  hai_park_item,
  hai_recontract,
  hai_close_mission,
  hai_confirm_criterion,
  hai_proof,
  hai_revoke_session,
  document_delete,
  document_extract,
  document_list,
  document_text_get,
  document_update,
  document_upload,
  search_case,
  search_internal,
  search_library,
  search_style,
  internal_decision_add,
  internal_decision_list,
  internal_decision_get,
  library_add,
  library_list,
  library_get,
  library_metadata_extract,
  citation_extract,
  citation_list,
  citation_incoming_list,
  missing_precedent_create,
  missing_precedent_list,
  missing_precedent_close,
  missing_precedent_review,
  precedent_attach,
  precedent_list,
  precedent_detach,
  halacha_extract,
  halacha_list,
  halacha_record,
  halacha_review,
  style_corpus_enrich,
  style_corpus_pending_list,
  reference_extract,
  reference_list,
  claim_extract,
  claim_list,
  claim_record,
  argument_aggregate,
  argument_list,
  appraiser_fact_extract,
  appraiser_fact_get,
  appraiser_fact_record,
  direction_propose,
  direction_list,
  direction_approve,
  direction_review,
  outcome_set,
  feedback_record,
  feedback_list,
  block_write,
  block_list,
  block_edit_apply,
  block_context_get,
  draft_validate,
  draft_get,
  draft_export,
  draft_bookmark_list,
  final_version_ingest,
  workflow_status,
  metrics_get,
} as const satisfies Record<string, AnyTool>;

/** The name of a registered tool. */
export type ToolName = keyof typeof tools;

/** The tools as a list, in registry order. */
export const toolList: readonly AnyTool[] = Object.values(tools);
