CREATE TABLE "agent_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"agent" text NOT NULL,
	"label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"agent" text NOT NULL,
	"tool" text NOT NULL,
	"idempotency_key" text,
	"outcome" text NOT NULL,
	"error_code" text,
	"duration_ms" integer NOT NULL,
	"request_id" text NOT NULL,
	"owner_ack" boolean,
	"owner_reason" text
);
--> statement-breakpoint
CREATE TABLE "cases" (
	"id" uuid PRIMARY KEY NOT NULL,
	"case_number" text NOT NULL,
	"title" text NOT NULL,
	"appellant" text,
	"respondent" text,
	"committee" text,
	"practice_area" text,
	"property_address" text,
	"status" text DEFAULT 'open' NOT NULL,
	"outcome" text,
	"notes" text,
	"final_text" text,
	"final_text_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"deleted_by" text,
	"delete_reason" text
);
--> statement-breakpoint
CREATE TABLE "kv_entries" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "agent_tokens_agent_idx" ON "agent_tokens" USING btree ("agent");--> statement-breakpoint
CREATE INDEX "audit_log_tool_at_idx" ON "audit_log" USING btree ("tool","at");--> statement-breakpoint
CREATE INDEX "audit_log_request_idx" ON "audit_log" USING btree ("request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cases_case_number_key" ON "cases" USING btree ("case_number");--> statement-breakpoint
CREATE INDEX "cases_list_idx" ON "cases" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "cases_live_status_idx" ON "cases" USING btree ("status") WHERE "cases"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "kv_entries_expires_at_idx" ON "kv_entries" USING btree ("expires_at");