ALTER TABLE "appraisal_facts" ADD COLUMN "origin" text DEFAULT 'extracted' NOT NULL;--> statement-breakpoint
ALTER TABLE "appraisal_facts" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "appraisal_facts" ADD COLUMN "corrects" uuid;--> statement-breakpoint
ALTER TABLE "appraisal_facts" ADD COLUMN "decided_by" text;--> statement-breakpoint
ALTER TABLE "appraisal_facts" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "appraisal_facts" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "holdings" ADD COLUMN "origin" text DEFAULT 'extracted' NOT NULL;