import type { AnyTool } from '../src/contract/define.ts';
import { case_create } from './case/case_create.ts';
import { case_delete } from './case/case_delete.ts';
import { case_final_text_get } from './case/case_final_text_get.ts';
import { case_get } from './case/case_get.ts';
import { case_list } from './case/case_list.ts';
import { case_update } from './case/case_update.ts';
import { extraction_run } from './extraction/extraction_run.ts';
import { extraction_status } from './extraction/extraction_status.ts';

/** Every tool the server offers, listed explicitly (no discovery): one line per tool, grouped by family. */
export const tools: readonly AnyTool[] = [
  case_create,
  case_list,
  case_get,
  case_update,
  case_delete,
  case_final_text_get,
  extraction_status,
  extraction_run,
];
