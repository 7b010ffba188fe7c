ALTER TABLE "campaigns" ADD COLUMN "cooldown_override" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "fund_requests" ADD COLUMN "failure_kind" text;--> statement-breakpoint
-- Requests refused before the kind was kept: the service's "not found" on a create is a tag it does not know.
UPDATE "fund_requests" SET "failure_kind" = 'not_found' WHERE "status" = 'failed' AND "error" LIKE 'The payment service could not find it%';
