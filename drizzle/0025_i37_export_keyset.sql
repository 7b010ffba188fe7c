-- The accounting export pages by (received_at, uuid) (docs/architecture.md "Closing the books"): with both in one
-- index each page is read from the index where the last ended, not sorted from every row after it.
DROP INDEX "payments_received_idx";--> statement-breakpoint
CREATE INDEX "payments_received_idx" ON "payments" USING btree ("received_at","uuid");