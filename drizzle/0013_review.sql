CREATE TABLE "chair_feedback" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "chair_feedback_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"case_id" uuid,
	"block_kind" text,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"natural_key" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chair_feedback_key" UNIQUE("natural_key")
);
--> statement-breakpoint
CREATE TABLE "directions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "directions_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"case_id" uuid NOT NULL,
	"title" text NOT NULL,
	"rationale" text NOT NULL,
	"outcome" text NOT NULL,
	"argument_ids" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"proposed_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_by" text,
	"approved_at" timestamp with time zone,
	"approval_reason" text,
	"superseded_at" timestamp with time zone,
	"superseded_by" uuid,
	CONSTRAINT "directions_content" UNIQUE("case_id","content_hash")
);
--> statement-breakpoint
CREATE TABLE "validation_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"case_id" uuid NOT NULL,
	"target" text NOT NULL,
	"result_hash" text NOT NULL,
	"errors" integer NOT NULL,
	"warnings" integer NOT NULL,
	"could_not_check" integer NOT NULL,
	"result" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "validation_runs_result" UNIQUE("case_id","target","result_hash")
);
--> statement-breakpoint
ALTER TABLE "hai_projects" ADD COLUMN "case_id" uuid;--> statement-breakpoint
ALTER TABLE "chair_feedback" ADD CONSTRAINT "chair_feedback_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "directions" ADD CONSTRAINT "directions_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "validation_runs" ADD CONSTRAINT "validation_runs_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chair_feedback_kind_idx" ON "chair_feedback" USING btree ("block_kind","seq");--> statement-breakpoint
CREATE INDEX "chair_feedback_case_idx" ON "chair_feedback" USING btree ("case_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "directions_one_approved" ON "directions" USING btree ("case_id") WHERE "directions"."status" = 'approved';--> statement-breakpoint
CREATE INDEX "directions_case_seq_idx" ON "directions" USING btree ("case_id","seq");--> statement-breakpoint
CREATE INDEX "validation_runs_case_idx" ON "validation_runs" USING btree ("case_id","target","checked_at");--> statement-breakpoint
ALTER TABLE "hai_projects" ADD CONSTRAINT "hai_projects_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;