CREATE TABLE "document_blobs" (
	"document_id" uuid PRIMARY KEY NOT NULL,
	"bytes" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_chunks" (
	"document_id" uuid NOT NULL,
	"page" integer NOT NULL,
	"chunk_index" integer NOT NULL,
	"text" text NOT NULL,
	"norm_text" text NOT NULL,
	"terms" text NOT NULL,
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "document_chunks"."terms")) STORED NOT NULL,
	"surface_tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "document_chunks"."norm_text")) STORED NOT NULL,
	CONSTRAINT "document_chunks_document_id_chunk_index_pk" PRIMARY KEY("document_id","chunk_index")
);
--> statement-breakpoint
CREATE TABLE "document_pages" (
	"document_id" uuid NOT NULL,
	"page" integer NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "document_pages_document_id_page_pk" PRIMARY KEY("document_id","page")
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"corpus" text NOT NULL,
	"case_id" uuid,
	"sha256" text NOT NULL,
	"media_type" text NOT NULL,
	"byte_size" integer NOT NULL,
	"filename" text,
	"title" text NOT NULL,
	"number" text,
	"decision_date" date,
	"court" text,
	"committee" text,
	"parties" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"page_count" integer,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"extracted_at" timestamp with time zone,
	CONSTRAINT "documents_natural_key" UNIQUE NULLS NOT DISTINCT("corpus","case_id","sha256"),
	CONSTRAINT "documents_case_corpus" CHECK (("documents"."corpus" = 'case') = ("documents"."case_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "search_terms" (
	"term" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_blobs" ADD CONSTRAINT "document_blobs_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_chunks" ADD CONSTRAINT "document_chunks_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_pages" ADD CONSTRAINT "document_pages_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_chunks_fts_idx" ON "document_chunks" USING gin ("tsv");--> statement-breakpoint
CREATE INDEX "document_chunks_trgm_idx" ON "document_chunks" USING gin ("norm_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "documents_case_list_idx" ON "documents" USING btree ("case_id","created_at","id");--> statement-breakpoint
CREATE INDEX "documents_corpus_list_idx" ON "documents" USING btree ("corpus","created_at","id");--> statement-breakpoint
CREATE INDEX "search_terms_trgm_idx" ON "search_terms" USING gin ("term" gin_trgm_ops);