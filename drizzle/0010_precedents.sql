CREATE TABLE "citations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"case_id" uuid,
	"key" text NOT NULL,
	"proceeding" text NOT NULL,
	"cited_document_id" uuid,
	"treatment" text NOT NULL,
	"cue" text,
	"cue_start" integer,
	"cue_end" integer,
	"passage" text NOT NULL,
	"fingerprint" text NOT NULL,
	"document_id" uuid NOT NULL,
	"page" integer NOT NULL,
	"start" integer NOT NULL,
	"end" integer NOT NULL,
	"text" text NOT NULL,
	"extractor_version" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "citations_finding" UNIQUE("document_id","fingerprint")
);
--> statement-breakpoint
CREATE TABLE "decision_metadata" (
	"document_id" uuid PRIMARY KEY NOT NULL,
	"court" text,
	"proceeding" text,
	"number" text,
	"number_key" text,
	"decision_date" date,
	"judges" jsonb,
	"parties" text,
	"outcome" text,
	"practice_area" text,
	"sources" jsonb NOT NULL,
	"provenance" jsonb NOT NULL,
	"extractor_version" text NOT NULL,
	"extracted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "missing_precedents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"citation" text NOT NULL,
	"case_id" uuid,
	"context" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"resolution" text,
	"document_id" uuid,
	"citation_id" uuid,
	"reason" text,
	"created_by" text NOT NULL,
	"closed_by" text,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "citations" ADD CONSTRAINT "citations_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citations" ADD CONSTRAINT "citations_cited_document_id_documents_id_fk" FOREIGN KEY ("cited_document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citations" ADD CONSTRAINT "citations_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_metadata" ADD CONSTRAINT "decision_metadata_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missing_precedents" ADD CONSTRAINT "missing_precedents_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missing_precedents" ADD CONSTRAINT "missing_precedents_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missing_precedents" ADD CONSTRAINT "missing_precedents_citation_id_citations_id_fk" FOREIGN KEY ("citation_id") REFERENCES "public"."citations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "citations_key_idx" ON "citations" USING btree ("key");--> statement-breakpoint
CREATE INDEX "citations_cited_idx" ON "citations" USING btree ("cited_document_id","created_at","id");--> statement-breakpoint
CREATE INDEX "decision_metadata_number_key_idx" ON "decision_metadata" USING btree ("number_key");--> statement-breakpoint
CREATE INDEX "decision_metadata_date_idx" ON "decision_metadata" USING btree ("decision_date","document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "missing_precedents_open_key" ON "missing_precedents" USING btree ("key") WHERE "missing_precedents"."status" = 'open';--> statement-breakpoint
CREATE INDEX "missing_precedents_status_idx" ON "missing_precedents" USING btree ("status","created_at","id");