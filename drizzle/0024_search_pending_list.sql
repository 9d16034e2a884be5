DROP INDEX "document_chunks_fts_idx";--> statement-breakpoint
CREATE INDEX "document_chunks_fts_idx" ON "document_chunks" USING gin ("tsv") WITH (gin_pending_list_limit=256);