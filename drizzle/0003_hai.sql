CREATE TABLE "hai_activity_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"lease_id" uuid NOT NULL,
	"activity" text NOT NULL,
	"in_scope" boolean NOT NULL,
	"matched" text,
	"agent" text NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hai_artifacts" (
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"version" integer NOT NULL,
	"content" text NOT NULL,
	"sha256" text NOT NULL,
	"written_by" text NOT NULL,
	"written_at" timestamp with time zone NOT NULL,
	CONSTRAINT "hai_artifacts_project_id_name_version_pk" PRIMARY KEY("project_id","name","version")
);
--> statement-breakpoint
CREATE TABLE "hai_checkpoints" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"label" text NOT NULL,
	"summary" text NOT NULL,
	"artifacts" jsonb NOT NULL,
	"written" jsonb NOT NULL,
	"args_sha256" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hai_contracts" (
	"mission_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"goal" text NOT NULL,
	"in_scope" jsonb NOT NULL,
	"out_of_scope" jsonb NOT NULL,
	"criteria" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"max_sessions" integer NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"reason" text,
	"break_glass" boolean DEFAULT false NOT NULL,
	"break_glass_marker" text,
	"terms_sha256" text NOT NULL,
	CONSTRAINT "hai_contracts_mission_id_version_pk" PRIMARY KEY("mission_id","version")
);
--> statement-breakpoint
CREATE TABLE "hai_evidence" (
	"id" uuid PRIMARY KEY NOT NULL,
	"mission_id" uuid NOT NULL,
	"contract_version" integer NOT NULL,
	"criterion_id" text NOT NULL,
	"lease_id" uuid NOT NULL,
	"checked" text NOT NULL,
	"result" text NOT NULL,
	"evidence" text,
	"device_id" text,
	"recorded_by" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"proof_sha256" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hai_inbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"text" text NOT NULL,
	"text_sha256" text NOT NULL,
	"source" text,
	"parked_by" text NOT NULL,
	"parked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hai_lanes" (
	"project_id" text NOT NULL,
	"lane" text NOT NULL,
	"state" text NOT NULL,
	"note" text,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "hai_lanes_project_id_lane_pk" PRIMARY KEY("project_id","lane")
);
--> statement-breakpoint
CREATE TABLE "hai_leases" (
	"id" uuid PRIMARY KEY NOT NULL,
	"mission_id" uuid NOT NULL,
	"contract_version" integer NOT NULL,
	"epoch" integer NOT NULL,
	"agent" text NOT NULL,
	"device_id" text,
	"harness_id" text,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoke_reason" text
);
--> statement-breakpoint
CREATE TABLE "hai_missions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"project_id" text,
	"scope_key" text NOT NULL,
	"title" text NOT NULL,
	"state" text NOT NULL,
	"current_version" integer NOT NULL,
	"lease_epoch" integer NOT NULL,
	"opened_by" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"closed_by" text,
	"closed_at" timestamp with time zone,
	"close_reason" text,
	"close_summary" text
);
--> statement-breakpoint
CREATE TABLE "hai_mounts" (
	"project_id" text NOT NULL,
	"device_id" text NOT NULL,
	"mount_path" text NOT NULL,
	"bound_by" text NOT NULL,
	"bound_at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	CONSTRAINT "hai_mounts_project_id_device_id_pk" PRIMARY KEY("project_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "hai_parked_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"mission_id" uuid NOT NULL,
	"item" text NOT NULL,
	"item_sha256" text NOT NULL,
	"rationale" text NOT NULL,
	"parked_by" text NOT NULL,
	"parked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hai_projects" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hai_proposals" (
	"project_id" text NOT NULL,
	"version" integer NOT NULL,
	"state" text NOT NULL,
	"proposed_by" text NOT NULL,
	"proposed_at" timestamp with time zone NOT NULL,
	"accepted_by" text,
	"accepted_at" timestamp with time zone,
	"accept_reason" text,
	"canonical_version" integer,
	CONSTRAINT "hai_proposals_project_id_version_pk" PRIMARY KEY("project_id","version")
);
--> statement-breakpoint
ALTER TABLE "hai_activity_checks" ADD CONSTRAINT "hai_activity_checks_lease_id_hai_leases_id_fk" FOREIGN KEY ("lease_id") REFERENCES "public"."hai_leases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hai_artifacts" ADD CONSTRAINT "hai_artifacts_project_id_hai_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."hai_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hai_checkpoints" ADD CONSTRAINT "hai_checkpoints_project_id_hai_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."hai_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hai_contracts" ADD CONSTRAINT "hai_contracts_mission_id_hai_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."hai_missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hai_evidence" ADD CONSTRAINT "hai_evidence_mission_id_hai_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."hai_missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hai_evidence" ADD CONSTRAINT "hai_evidence_lease_id_hai_leases_id_fk" FOREIGN KEY ("lease_id") REFERENCES "public"."hai_leases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hai_inbox" ADD CONSTRAINT "hai_inbox_project_id_hai_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."hai_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hai_lanes" ADD CONSTRAINT "hai_lanes_project_id_hai_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."hai_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hai_leases" ADD CONSTRAINT "hai_leases_mission_id_hai_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."hai_missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hai_missions" ADD CONSTRAINT "hai_missions_project_id_hai_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."hai_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hai_mounts" ADD CONSTRAINT "hai_mounts_project_id_hai_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."hai_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hai_parked_items" ADD CONSTRAINT "hai_parked_items_mission_id_hai_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."hai_missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hai_proposals" ADD CONSTRAINT "hai_proposals_project_id_hai_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."hai_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hai_activity_checks_key" ON "hai_activity_checks" USING btree ("lease_id","activity");--> statement-breakpoint
CREATE UNIQUE INDEX "hai_checkpoints_label_key" ON "hai_checkpoints" USING btree ("project_id","label");--> statement-breakpoint
CREATE UNIQUE INDEX "hai_evidence_key" ON "hai_evidence" USING btree ("lease_id","proof_sha256");--> statement-breakpoint
CREATE INDEX "hai_evidence_mission_idx" ON "hai_evidence" USING btree ("mission_id","contract_version","criterion_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hai_inbox_text_key" ON "hai_inbox" USING btree ("project_id","text_sha256");--> statement-breakpoint
CREATE INDEX "hai_inbox_project_idx" ON "hai_inbox" USING btree ("project_id","parked_at");--> statement-breakpoint
CREATE INDEX "hai_leases_mission_idx" ON "hai_leases" USING btree ("mission_id","epoch","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "hai_missions_name_key" ON "hai_missions" USING btree ("scope_key","name");--> statement-breakpoint
CREATE UNIQUE INDEX "hai_missions_active_key" ON "hai_missions" USING btree ("scope_key") WHERE "hai_missions"."state" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "hai_parked_items_key" ON "hai_parked_items" USING btree ("mission_id","item_sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "hai_proposals_pending_key" ON "hai_proposals" USING btree ("project_id") WHERE "hai_proposals"."state" = 'pending';