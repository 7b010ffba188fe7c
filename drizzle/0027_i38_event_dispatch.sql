-- Events not yet handed to their consumers (lib/events/dispatch.job.ts; docs/architecture.md "Events").
ALTER TABLE "events" ADD COLUMN "dispatched_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "events_undispatched_idx" ON "events" USING btree ("id") WHERE dispatched_at is null;