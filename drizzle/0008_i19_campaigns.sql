ALTER TABLE "campaign_rows" DROP CONSTRAINT "campaign_rows_status_check";--> statement-breakpoint
ALTER TABLE "campaign_rows" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "sender_id" uuid;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "paused_reason" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_sender_id_staff_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_rows_claimed_idx" ON "campaign_rows" USING btree ("claimed_at") WHERE "campaign_rows"."status" = 'claimed';--> statement-breakpoint
ALTER TABLE "campaign_rows" ADD CONSTRAINT "campaign_rows_status_check" CHECK ("campaign_rows"."status" in ('invalid', 'queued', 'claimed', 'sent', 'failed', 'skipped'));--> statement-breakpoint
-- Issue 19: the sender of record of existing campaigns is their uploader.
UPDATE "campaigns" SET "sender_id" = "created_by" WHERE "sender_id" IS NULL;--> statement-breakpoint
-- Issue 19: client idempotency keys move to their own namespace ("client:<key>"), so a repeated client key
-- still finds its record. A key equal to a real campaign row's key (cmp_<campaign>_<row>) stays the campaign's.
UPDATE "fund_requests" SET "idempotency_key" = 'client:' || "idempotency_key"
WHERE "idempotency_key" IS NOT NULL
  AND NOT EXISTS (
    SELECT 1 FROM "campaign_rows" r
    WHERE r."campaign_id" = (CASE WHEN "fund_requests"."idempotency_key" ~ '^cmp_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}_[0-9]{1,9}$' THEN substr("fund_requests"."idempotency_key", 5, 36)::uuid END)
      AND r."row" = (CASE WHEN "fund_requests"."idempotency_key" ~ '^cmp_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}_[0-9]{1,9}$' THEN substr("fund_requests"."idempotency_key", 42)::int END)
  );
