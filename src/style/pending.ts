// Which style documents still need the segmenter: never enriched, or enriched by an older version.
import { and, eq, ne, or, type SQL, sql } from '../db/orm.ts';
import { documents } from '../db/schema/documents.ts';
import { styleEnrichments } from '../db/schema/holdings.ts';
import { styleExtractor } from './extractor.ts';

/** Joined with style_enrichments (left join on the document): the rows the segmenter has yet to (re)read. */
export const pendingStyle: SQL = and(
  eq(documents.corpus, 'style'),
  or(
    sql`${styleEnrichments.documentId} is null`,
    ne(styleEnrichments.segmenterVersion, styleExtractor.version),
  ),
) as SQL;
