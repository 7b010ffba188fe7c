ALTER TABLE "campaign_rows" ADD COLUMN "business_reference" text;--> statement-breakpoint
ALTER TABLE "fund_requests" ADD COLUMN "business_reference" text;--> statement-breakpoint
ALTER TABLE "plan_members" ADD COLUMN "business_reference" text;