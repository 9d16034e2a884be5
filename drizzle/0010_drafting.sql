CREATE TABLE "draft_blocks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "draft_blocks_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"case_id" uuid NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"version" integer NOT NULL,
	"title" text,
	"text" text NOT NULL,
	"claim_ids" jsonb NOT NULL,
	"argument_ids" jsonb NOT NULL,
	"citations" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"source" text NOT NULL,
	"author" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "draft_blocks_version" UNIQUE("case_id","key","version")
);
--> statement-breakpoint
CREATE TABLE "draft_exports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"case_id" uuid NOT NULL,
	"blocks_hash" text NOT NULL,
	"sha256" text NOT NULL,
	"byte_size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"blocks" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "draft_exports_blocks" UNIQUE("case_id","blocks_hash")
);
--> statement-breakpoint
CREATE TABLE "final_version_blocks" (
	"final_id" uuid NOT NULL,
	"case_id" uuid NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"exported_version" integer NOT NULL,
	"exported_text" text NOT NULL,
	"final_text" text,
	"edit_ratio" double precision,
	"changes" jsonb NOT NULL,
	"comments" jsonb NOT NULL,
	CONSTRAINT "final_version_blocks_key" UNIQUE("final_id","key")
);
--> statement-breakpoint
CREATE TABLE "final_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"case_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"format" text NOT NULL,
	"export_id" uuid,
	"text" text NOT NULL,
	"document_id" uuid,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "final_versions_file" UNIQUE("case_id","sha256")
);
--> statement-breakpoint
ALTER TABLE "draft_blocks" ADD CONSTRAINT "draft_blocks_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "draft_exports" ADD CONSTRAINT "draft_exports_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "final_version_blocks" ADD CONSTRAINT "final_version_blocks_final_id_final_versions_id_fk" FOREIGN KEY ("final_id") REFERENCES "public"."final_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "final_version_blocks" ADD CONSTRAINT "final_version_blocks_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "final_versions" ADD CONSTRAINT "final_versions_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "final_versions" ADD CONSTRAINT "final_versions_export_id_draft_exports_id_fk" FOREIGN KEY ("export_id") REFERENCES "public"."draft_exports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "draft_blocks_case_seq_idx" ON "draft_blocks" USING btree ("case_id","seq");--> statement-breakpoint
CREATE INDEX "draft_exports_sha256_idx" ON "draft_exports" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "final_version_blocks_kind_idx" ON "final_version_blocks" USING btree ("kind");