CREATE TABLE "balance_readings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"main_minor" numeric(24, 4) NOT NULL
);
--> statement-breakpoint
CREATE INDEX "balance_readings_read_idx" ON "balance_readings" USING btree ("read_at");--> statement-breakpoint
CREATE INDEX "fund_requests_decided_idx" ON "fund_requests" USING btree ("decided_at");