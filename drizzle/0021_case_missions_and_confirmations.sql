CREATE TABLE "hai_confirmations" (
	"mission_id" uuid NOT NULL,
	"contract_version" integer NOT NULL,
	"criterion_id" text NOT NULL,
	"confirmed_by" text NOT NULL,
	"confirmed_at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	CONSTRAINT "hai_confirmations_mission_id_contract_version_criterion_id_pk" PRIMARY KEY("mission_id","contract_version","criterion_id")
);
--> statement-breakpoint
ALTER TABLE "hai_missions" ADD COLUMN "case_id" uuid;--> statement-breakpoint
ALTER TABLE "hai_confirmations" ADD CONSTRAINT "hai_confirmations_mission_id_hai_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."hai_missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hai_missions" ADD CONSTRAINT "hai_missions_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hai_missions_case_idx" ON "hai_missions" USING btree ("case_id","state");