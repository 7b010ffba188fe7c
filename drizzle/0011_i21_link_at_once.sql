ALTER TABLE "fund_requests" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "link_confirmed_at" timestamp with time zone;--> statement-breakpoint
-- Payments linked before this version were linked only after the service confirmed the request.
UPDATE "payments" SET "link_confirmed_at" = "received_at" WHERE "fund_request_id" IS NOT NULL;
