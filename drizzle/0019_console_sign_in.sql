CREATE TABLE "owner_sign_in_attempts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "owner_approvals" ADD COLUMN "result" jsonb;--> statement-breakpoint
ALTER TABLE "owner_sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "owners" ADD COLUMN "password_hash" text;--> statement-breakpoint
ALTER TABLE "owners" ADD COLUMN "password_set_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "owner_sign_in_attempts_name_idx" ON "owner_sign_in_attempts" USING btree ("name","at");