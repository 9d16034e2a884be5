CREATE TABLE "case_precedents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "case_precedents_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"case_id" uuid NOT NULL,
	"section" text NOT NULL,
	"section_key" text NOT NULL,
	"citation" text NOT NULL,
	"citation_key" text NOT NULL,
	"quote" text NOT NULL,
	"quote_key" text NOT NULL,
	"document_id" uuid,
	"page" integer,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"detached_at" timestamp with time zone,
	"detached_by" text
);
--> statement-breakpoint
CREATE TABLE "holding_reviews" (
	"id" uuid PRIMARY KEY NOT NULL,
	"holding_id" uuid NOT NULL,
	"decision" text NOT NULL,
	"content" text NOT NULL,
	"text" text,
	"topic" text,
	"reason" text,
	"agent" text NOT NULL,
	"owner" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "holding_reviews_key" UNIQUE("holding_id","decision","content")
);
--> statement-breakpoint
CREATE TABLE "holdings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "holdings_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"status" text DEFAULT 'pending' NOT NULL,
	"cue" text NOT NULL,
	"approved_text" text,
	"topic" text,
	"reviewed_by" text,
	"review_reason" text,
	"reviewed_at" timestamp with time zone,
	"document_id" uuid NOT NULL,
	"page" integer NOT NULL,
	"start" integer NOT NULL,
	"end" integer NOT NULL,
	"text" text NOT NULL,
	"extractor_version" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "holdings_span" UNIQUE("document_id","page","start","end")
);
--> statement-breakpoint
CREATE TABLE "style_enrichments" (
	"document_id" uuid PRIMARY KEY NOT NULL,
	"segmenter_version" text NOT NULL,
	"outcome" text,
	"segments" integer NOT NULL,
	"enriched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "style_segments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"part" text NOT NULL,
	"position" integer NOT NULL,
	"heading" text,
	"document_id" uuid NOT NULL,
	"page" integer NOT NULL,
	"start" integer NOT NULL,
	"end" integer NOT NULL,
	"text" text NOT NULL,
	"extractor_version" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "style_segments_position" UNIQUE("document_id","position")
);
--> statement-breakpoint
ALTER TABLE "case_precedents" ADD CONSTRAINT "case_precedents_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_precedents" ADD CONSTRAINT "case_precedents_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holding_reviews" ADD CONSTRAINT "holding_reviews_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holdings" ADD CONSTRAINT "holdings_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "style_enrichments" ADD CONSTRAINT "style_enrichments_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "style_segments" ADD CONSTRAINT "style_segments_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "case_precedents_key" ON "case_precedents" USING btree ("case_id","section_key","citation_key","quote_key") WHERE "case_precedents"."detached_at" is null;--> statement-breakpoint
CREATE INDEX "case_precedents_case_seq_idx" ON "case_precedents" USING btree ("case_id","seq");--> statement-breakpoint
CREATE INDEX "case_precedents_citation_idx" ON "case_precedents" USING btree ("citation_key","seq");--> statement-breakpoint
CREATE INDEX "holdings_status_seq_idx" ON "holdings" USING btree ("status","seq");