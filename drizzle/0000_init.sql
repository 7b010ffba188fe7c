CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor_email" text,
	"action" text NOT NULL,
	"target" text,
	"detail" jsonb,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "fund_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"idempotency_key" text,
	"request_id" text,
	"tag" text NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"description" text NOT NULL,
	"status" text NOT NULL,
	"requested_by" jsonb,
	"requested_sent_to" jsonb,
	"created_by" uuid,
	"error" text,
	"payment_uuid" text,
	"service_created_at" timestamp with time zone,
	"service_updated_at" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fund_requests_reference_unique" UNIQUE("reference"),
	CONSTRAINT "fund_requests_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "fund_requests_request_id_unique" UNIQUE("request_id"),
	CONSTRAINT "fund_requests_status_check" CHECK ("fund_requests"."status" in ('sending', 'pending', 'accepted', 'declined', 'failed')),
	CONSTRAINT "fund_requests_amount_positive" CHECK ("fund_requests"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"uuid" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"actual_amount" numeric(18, 2) NOT NULL,
	"settled_amount" numeric(18, 2) NOT NULL,
	"fees" numeric(18, 2) NOT NULL,
	"description" text NOT NULL,
	"paypoint" boolean DEFAULT false NOT NULL,
	"customer_uuid" text,
	"customer_name" text NOT NULL,
	"customer_tag" text NOT NULL,
	"customer_email" text,
	"customer_phone" text,
	"customer_avatar" text,
	"peer_tag" text,
	"verification" text DEFAULT 'unverified' NOT NULL,
	"verification_error" text,
	"verification_attempts" integer DEFAULT 0 NOT NULL,
	"verified_at" timestamp with time zone,
	"fund_request_id" uuid,
	"link_note" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_verification_check" CHECK ("payments"."verification" in ('unverified', 'verified', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "staff" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_email_unique" UNIQUE("email"),
	CONSTRAINT "staff_role_check" CHECK ("staff"."role" in ('admin', 'operator', 'viewer')),
	CONSTRAINT "staff_email_lower" CHECK ("staff"."email" = lower("staff"."email"))
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL,
	"http_status" integer NOT NULL,
	"event_type" text,
	"uuid" text,
	"body" text,
	"remote_addr" text,
	"detail" text
);
--> statement-breakpoint
ALTER TABLE "fund_requests" ADD CONSTRAINT "fund_requests_created_by_staff_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_fund_request_id_fund_requests_id_fk" FOREIGN KEY ("fund_request_id") REFERENCES "public"."fund_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_email","at");--> statement-breakpoint
CREATE INDEX "fund_requests_status_idx" ON "fund_requests" USING btree ("status","last_checked_at");--> statement-breakpoint
CREATE INDEX "fund_requests_created_idx" ON "fund_requests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "fund_requests_tag_idx" ON "fund_requests" USING btree ("tag");--> statement-breakpoint
CREATE INDEX "payments_received_idx" ON "payments" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "payments_tag_idx" ON "payments" USING btree ("customer_tag");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_received_idx" ON "webhook_deliveries" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_outcome_idx" ON "webhook_deliveries" USING btree ("outcome","received_at");