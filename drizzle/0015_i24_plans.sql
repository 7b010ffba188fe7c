CREATE TABLE "plan_members" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"plan_id" uuid NOT NULL,
	"row" integer NOT NULL,
	"tag" text NOT NULL,
	"tag_key" text NOT NULL,
	"amount_text" text NOT NULL,
	"amount_naira" numeric(18, 2),
	"description" text DEFAULT '' NOT NULL,
	"error" text,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_periods" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"plan_id" uuid NOT NULL,
	"period" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"campaign_id" uuid,
	"made_by" uuid,
	"made_at" timestamp with time zone,
	"chase_rounds" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_periods_status_check" CHECK ("plan_periods"."status" in ('made', 'missed'))
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"frequency" text NOT NULL,
	"day" integer NOT NULL,
	"send_at" text NOT NULL,
	"time_zone" text NOT NULL,
	"starts_on" text NOT NULL,
	"ends_on" text,
	"description_template" text NOT NULL,
	"chase_after_hours" integer,
	"chase_times" integer,
	"chase_include" jsonb,
	"created_by" uuid,
	"active_since" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_until" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_status_check" CHECK ("plans"."status" in ('active', 'paused', 'ended')),
	CONSTRAINT "plans_frequency_check" CHECK ("plans"."frequency" in ('weekly', 'monthly', 'quarterly'))
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "plan_id" uuid;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "period" text;--> statement-breakpoint
ALTER TABLE "plan_members" ADD CONSTRAINT "plan_members_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_periods" ADD CONSTRAINT "plan_periods_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_periods" ADD CONSTRAINT "plan_periods_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_periods" ADD CONSTRAINT "plan_periods_made_by_staff_id_fk" FOREIGN KEY ("made_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_created_by_staff_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "plan_members_plan_row_key" ON "plan_members" USING btree ("plan_id","row");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_members_plan_tag_key" ON "plan_members" USING btree ("plan_id","tag_key") WHERE "plan_members"."removed_at" is null and "plan_members"."error" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "plan_periods_plan_period_key" ON "plan_periods" USING btree ("plan_id","period");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_periods_campaign_key" ON "plan_periods" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "plans_created_idx" ON "plans" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "campaigns_plan_idx" ON "campaigns" USING btree ("plan_id","period");