ALTER TABLE "payments" ADD COLUMN "source" text DEFAULT 'webhook' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "recorded_by_name" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "hand_reference" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_source_check" CHECK ("payments"."source" in ('webhook', 'hand'));--> statement-breakpoint
-- A hand record replaced by its late payment notice is the one payment ever deleted: its payer's counts go back.
CREATE FUNCTION "payer_stats_on_payment_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE payer_stats SET payments = payments - 1, collected = collected - OLD.settled_amount
  WHERE tag = lower(regexp_replace(OLD.customer_tag, '^@', ''));
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "payments_payer_stats_delete" AFTER DELETE ON "payments" FOR EACH ROW EXECUTE FUNCTION "payer_stats_on_payment_delete"();
