CREATE TABLE "pay_challenges_used" (
	"signature" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pay_page_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"page_id" uuid NOT NULL,
	"token" text NOT NULL,
	"tag" text NOT NULL,
	"tag_key" text NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"address_key" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"held_reason" text,
	"fund_request_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "pay_page_submissions_status_check" CHECK ("pay_page_submissions"."status" in ('queued', 'sent', 'joined', 'held', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "pay_pages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"amount_fixed" numeric(18, 2),
	"amount_min" numeric(18, 2),
	"amount_max" numeric(18, 2),
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"plan_id" uuid,
	"active" boolean DEFAULT true NOT NULL,
	"expires_at" timestamp with time zone,
	"max_payments" integer,
	"success_message" text NOT NULL,
	"daily_limit" integer DEFAULT 500 NOT NULL,
	"views" bigint DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pay_pages_amount_check" CHECK (("pay_pages"."amount_fixed" is not null and "pay_pages"."amount_min" is null and "pay_pages"."amount_max" is null) or ("pay_pages"."amount_fixed" is null and "pay_pages"."amount_min" is not null and "pay_pages"."amount_max" is not null and "pay_pages"."amount_min" <= "pay_pages"."amount_max")),
	CONSTRAINT "pay_pages_limits_check" CHECK ("pay_pages"."daily_limit" > 0 and ("pay_pages"."max_payments" is null or "pay_pages"."max_payments" > 0))
);
--> statement-breakpoint
ALTER TABLE "exceptions" DROP CONSTRAINT "exceptions_kind_check";--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "business_name" text DEFAULT 'Fundboard' NOT NULL;--> statement-breakpoint
ALTER TABLE "pay_page_submissions" ADD CONSTRAINT "pay_page_submissions_page_id_pay_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."pay_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_page_submissions" ADD CONSTRAINT "pay_page_submissions_fund_request_id_fund_requests_id_fk" FOREIGN KEY ("fund_request_id") REFERENCES "public"."fund_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_pages" ADD CONSTRAINT "pay_pages_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_pages" ADD CONSTRAINT "pay_pages_created_by_staff_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pay_challenges_used_expires_idx" ON "pay_challenges_used" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "pay_page_submissions_token_key" ON "pay_page_submissions" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "pay_page_submissions_fund_request_key" ON "pay_page_submissions" USING btree ("fund_request_id");--> statement-breakpoint
CREATE INDEX "pay_page_submissions_page_created_idx" ON "pay_page_submissions" USING btree ("page_id","created_at");--> statement-breakpoint
CREATE INDEX "pay_page_submissions_address_created_idx" ON "pay_page_submissions" USING btree ("address_key","created_at");--> statement-breakpoint
CREATE INDEX "pay_page_submissions_tag_created_idx" ON "pay_page_submissions" USING btree ("tag_key","created_at");--> statement-breakpoint
CREATE INDEX "pay_page_submissions_queued_idx" ON "pay_page_submissions" USING btree ("created_at") WHERE "pay_page_submissions"."status" = 'queued';--> statement-breakpoint
CREATE UNIQUE INDEX "pay_pages_slug_key" ON "pay_pages" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "pay_pages_created_idx" ON "pay_pages" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "exceptions" ADD CONSTRAINT "exceptions_kind_check" CHECK ("exceptions"."kind" in ('unlinked_payment', 'verification_failed', 'amount_mismatch', 'accepted_without_payment', 'duplicate_payment', 'pay_page_surge'));