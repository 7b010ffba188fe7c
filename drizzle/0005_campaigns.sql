CREATE TABLE "campaign_rows" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"campaign_id" uuid NOT NULL,
	"row" integer NOT NULL,
	"tag" text NOT NULL,
	"amount_text" text NOT NULL,
	"amount_naira" numeric(18, 2),
	"description" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"warning" text,
	"fund_request_id" uuid,
	CONSTRAINT "campaign_rows_status_check" CHECK ("campaign_rows"."status" in ('invalid', 'queued', 'sent', 'failed', 'skipped'))
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaigns_status_check" CHECK ("campaigns"."status" in ('draft', 'sending', 'paused', 'done', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "campaign_rows" ADD CONSTRAINT "campaign_rows_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_rows" ADD CONSTRAINT "campaign_rows_fund_request_id_fund_requests_id_fk" FOREIGN KEY ("fund_request_id") REFERENCES "public"."fund_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_created_by_staff_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_rows_campaign_row_key" ON "campaign_rows" USING btree ("campaign_id","row");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_rows_fund_request_key" ON "campaign_rows" USING btree ("fund_request_id");--> statement-breakpoint
CREATE INDEX "campaign_rows_status_idx" ON "campaign_rows" USING btree ("campaign_id","status","row");--> statement-breakpoint
CREATE INDEX "campaigns_created_idx" ON "campaigns" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "campaigns_status_idx" ON "campaigns" USING btree ("status");