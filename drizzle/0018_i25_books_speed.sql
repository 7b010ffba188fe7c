-- The hour totals are derived from payments (lib/payments/hour-totals.ts): emptied here so every finished hour is
-- summed again, gross included, on the next read.
DELETE FROM "payment_hour_totals";--> statement-breakpoint
ALTER TABLE "payment_hour_totals" ADD COLUMN "gross" numeric(18, 2) NOT NULL;--> statement-breakpoint
CREATE INDEX "exceptions_status_resolved_idx" ON "exceptions" USING btree ("status","resolved_at","id");--> statement-breakpoint
CREATE INDEX "exceptions_status_kind_opened_idx" ON "exceptions" USING btree ("status","kind","opened_at");
