-- The API's event log pages in the order events were dispatched (after their commit), not by id (docs/architecture.md "The API").
ALTER TABLE "events" ADD COLUMN "seq" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "events_seq_idx" ON "events" USING btree ("seq");--> statement-breakpoint
-- Events already dispatched take their places in id order.
UPDATE "events" SET "seq" = "ordered"."n" FROM (SELECT "id", row_number() OVER (ORDER BY "id") AS "n" FROM "events" WHERE "dispatched_at" IS NOT NULL) AS "ordered" WHERE "events"."id" = "ordered"."id";
