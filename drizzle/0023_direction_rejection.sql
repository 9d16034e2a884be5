ALTER TABLE "directions" ADD COLUMN "rejected_by" text;--> statement-breakpoint
ALTER TABLE "directions" ADD COLUMN "rejected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "directions" ADD COLUMN "rejection_reason" text;