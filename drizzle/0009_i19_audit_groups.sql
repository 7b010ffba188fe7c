ALTER TABLE "audit_log" ADD COLUMN "count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "group_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_group_key" ON "audit_log" USING btree ("group_key");