CREATE TABLE "exceptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"payment_uuid" text,
	"request_id" text,
	"tag" text,
	"amount" numeric(18, 2),
	"detail" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_by_id" uuid,
	"resolved_by_name" text,
	"resolved_at" timestamp with time zone,
	"note" text,
	"reopened_at" timestamp with time zone,
	CONSTRAINT "exceptions_kind_check" CHECK ("exceptions"."kind" in ('unlinked_payment', 'verification_failed', 'amount_mismatch', 'accepted_without_payment', 'duplicate_payment')),
	CONSTRAINT "exceptions_status_check" CHECK ("exceptions"."status" in ('open', 'resolved'))
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "verification_mismatch" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "exceptions" ADD CONSTRAINT "exceptions_resolved_by_id_staff_id_fk" FOREIGN KEY ("resolved_by_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exceptions_kind_subject_key" ON "exceptions" USING btree ("kind","subject");--> statement-breakpoint
CREATE INDEX "exceptions_status_opened_idx" ON "exceptions" USING btree ("status","opened_at");--> statement-breakpoint
CREATE INDEX "exceptions_payment_idx" ON "exceptions" USING btree ("payment_uuid");--> statement-breakpoint
CREATE INDEX "fund_requests_unpaid_idx" ON "fund_requests" USING btree ("decided_at") WHERE "fund_requests"."status" = 'accepted' and "fund_requests"."payment_uuid" is null;--> statement-breakpoint
CREATE INDEX "payments_unlinked_idx" ON "payments" USING btree ("received_at") WHERE "payments"."fund_request_id" is null and "payments"."link_note" is not null;--> statement-breakpoint
-- Failed verdicts recorded before the flag existed: the verify host disagreed on an amount (lib/payments/verify.ts's words).
UPDATE "payments" SET "verification_mismatch" = true WHERE "verification" = 'failed' AND "verification_error" LIKE 'The verify host reports % but the payment notice said %';
