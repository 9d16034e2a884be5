CREATE TABLE "case_dates" (
	"case_id" uuid PRIMARY KEY NOT NULL,
	"filing_date" date,
	"response_date" date,
	"hearings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"decision_due_date" date,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_panels" (
	"case_id" uuid PRIMARY KEY NOT NULL,
	"members" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"deciding_appraiser" text,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "case_dates" ADD CONSTRAINT "case_dates_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_panels" ADD CONSTRAINT "case_panels_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;