CREATE TABLE "owner_approvals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tool" text NOT NULL,
	"agent" text NOT NULL,
	"args" jsonb NOT NULL,
	"args_sha256" text NOT NULL,
	"agent_reason" text,
	"state" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"request_id" text NOT NULL,
	"decided_by" uuid,
	"decided_by_name" text,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"expires_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	"used_request_id" text
);
--> statement-breakpoint
CREATE TABLE "owner_login_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "owner_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "owners" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "approval_id" uuid;--> statement-breakpoint
ALTER TABLE "owner_approvals" ADD CONSTRAINT "owner_approvals_decided_by_owners_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_login_links" ADD CONSTRAINT "owner_login_links_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_sessions" ADD CONSTRAINT "owner_sessions_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "owner_approvals_pending_key" ON "owner_approvals" USING btree ("agent","tool","args_sha256") WHERE "owner_approvals"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "owner_approvals_state_idx" ON "owner_approvals" USING btree ("state","requested_at");--> statement-breakpoint
CREATE INDEX "owner_approvals_call_idx" ON "owner_approvals" USING btree ("agent","tool","args_sha256");--> statement-breakpoint
CREATE INDEX "owner_login_links_owner_idx" ON "owner_login_links" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "owner_sessions_owner_idx" ON "owner_sessions" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "owners_name_key" ON "owners" USING btree ("name");--> statement-breakpoint
CREATE INDEX "audit_log_approval_idx" ON "audit_log" USING btree ("approval_id");