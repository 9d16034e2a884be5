CREATE TABLE "appraisal_facts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"case_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text,
	"value" double precision NOT NULL,
	"unit" text NOT NULL,
	"appraiser_name" text,
	"appraiser_role" text NOT NULL,
	"parcel" text,
	"plan" text,
	"note" text,
	"fingerprint" text NOT NULL,
	"document_id" uuid NOT NULL,
	"page" integer NOT NULL,
	"start" integer NOT NULL,
	"end" integer NOT NULL,
	"text" text NOT NULL,
	"extractor_version" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appraisal_facts_finding" UNIQUE("document_id","fingerprint")
);
--> statement-breakpoint
CREATE TABLE "argument_claims" (
	"map_id" uuid NOT NULL,
	"argument_id" uuid NOT NULL,
	"claim_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "argument_claims_map_id_claim_id_pk" PRIMARY KEY("map_id","claim_id")
);
--> statement-breakpoint
CREATE TABLE "argument_maps" (
	"id" uuid PRIMARY KEY NOT NULL,
	"case_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"content_hash" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "argument_maps_version" UNIQUE("case_id","version")
);
--> statement-breakpoint
CREATE TABLE "case_arguments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"map_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"party" text NOT NULL,
	"summary" text,
	CONSTRAINT "case_arguments_position" UNIQUE("map_id","position")
);
--> statement-breakpoint
CREATE TABLE "case_references" (
	"id" uuid PRIMARY KEY NOT NULL,
	"case_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"document_id" uuid NOT NULL,
	"page" integer NOT NULL,
	"start" integer NOT NULL,
	"end" integer NOT NULL,
	"text" text NOT NULL,
	"extractor_version" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_references_finding" UNIQUE("document_id","fingerprint")
);
--> statement-breakpoint
CREATE TABLE "claim_actions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"claim_id" uuid NOT NULL,
	"action" text NOT NULL,
	"content" text NOT NULL,
	"reason" text,
	"agent" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "claim_actions_key" UNIQUE("claim_id","action","content")
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "claims_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"case_id" uuid NOT NULL,
	"party" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'candidate' NOT NULL,
	"origin" text NOT NULL,
	"label" text,
	"heading" text,
	"norm_text" text NOT NULL,
	"wording" text,
	"merged_into" uuid,
	"decided_by" text,
	"reason" text,
	"decided_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"document_id" uuid NOT NULL,
	"page" integer NOT NULL,
	"start" integer NOT NULL,
	"end" integer NOT NULL,
	"text" text NOT NULL,
	"extractor_version" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "role" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "role_source" text;--> statement-breakpoint
ALTER TABLE "appraisal_facts" ADD CONSTRAINT "appraisal_facts_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appraisal_facts" ADD CONSTRAINT "appraisal_facts_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "argument_claims" ADD CONSTRAINT "argument_claims_map_id_argument_maps_id_fk" FOREIGN KEY ("map_id") REFERENCES "public"."argument_maps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "argument_claims" ADD CONSTRAINT "argument_claims_argument_id_case_arguments_id_fk" FOREIGN KEY ("argument_id") REFERENCES "public"."case_arguments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "argument_claims" ADD CONSTRAINT "argument_claims_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "argument_maps" ADD CONSTRAINT "argument_maps_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_arguments" ADD CONSTRAINT "case_arguments_map_id_argument_maps_id_fk" FOREIGN KEY ("map_id") REFERENCES "public"."argument_maps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_references" ADD CONSTRAINT "case_references_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_references" ADD CONSTRAINT "case_references_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_actions" ADD CONSTRAINT "claim_actions_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appraisal_facts_case_kind_idx" ON "appraisal_facts" USING btree ("case_id","kind");--> statement-breakpoint
CREATE INDEX "argument_claims_claim_idx" ON "argument_claims" USING btree ("claim_id");--> statement-breakpoint
CREATE INDEX "case_references_case_key_idx" ON "case_references" USING btree ("case_id","kind","key");--> statement-breakpoint
CREATE UNIQUE INDEX "claims_extracted_span" ON "claims" USING btree ("document_id","page","start","end") WHERE "claims"."origin" = 'extracted';--> statement-breakpoint
CREATE UNIQUE INDEX "claims_recorded_key" ON "claims" USING btree ("case_id","party","norm_text") WHERE "claims"."origin" = 'recorded';--> statement-breakpoint
CREATE INDEX "claims_case_seq_idx" ON "claims" USING btree ("case_id","seq");