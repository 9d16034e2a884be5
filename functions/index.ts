import type { AnyTool } from '../src/contract/define.ts';
import { case_create } from './case/case_create.ts';
import { case_delete } from './case/case_delete.ts';
import { case_final_text_get } from './case/case_final_text_get.ts';
import { case_get } from './case/case_get.ts';
import { case_list } from './case/case_list.ts';
import { case_update } from './case/case_update.ts';
import { document_list } from './document/document_list.ts';
import { document_text_get } from './document/document_text_get.ts';
import { document_update } from './document/document_update.ts';
import { search_case } from './search/search_case.ts';
import { search_internal } from './search/search_internal.ts';
import { search_library } from './search/search_library.ts';
import { search_style } from './search/search_style.ts';

/** Every tool the server offers, listed explicitly (no discovery): one line per tool, grouped by family. */
export const tools: readonly AnyTool[] = [
  case_create,
  case_list,
  case_get,
  case_update,
  case_delete,
  case_final_text_get,
  document_list,
  document_text_get,
  document_update,
  search_case,
  search_internal,
  search_library,
  search_style,
];
