CREATE TABLE "balance_cache" (
	"id" integer PRIMARY KEY NOT NULL,
	"value" jsonb,
	"fetched_at" timestamp with time zone,
	"refreshing_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "service_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	CONSTRAINT "service_calls_kind_check" CHECK ("service_calls"."kind" in ('interactive', 'background'))
);
--> statement-breakpoint
CREATE INDEX "service_calls_at_idx" ON "service_calls" USING btree ("at");