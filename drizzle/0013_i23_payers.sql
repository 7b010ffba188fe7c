CREATE TABLE "do_not_ask" (
	"tag" text PRIMARY KEY NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"marked_by" uuid,
	"marked_by_name" text NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payer_stats" (
	"tag" text PRIMARY KEY NOT NULL,
	"name" text,
	"name_at" timestamp with time zone,
	"asked" integer DEFAULT 0 NOT NULL,
	"accepted" integer DEFAULT 0 NOT NULL,
	"declined" integer DEFAULT 0 NOT NULL,
	"unanswered" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"payments" integer DEFAULT 0 NOT NULL,
	"collected" numeric(18, 2) DEFAULT '0' NOT NULL,
	"last_activity_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "campaign_rows" ADD COLUMN "left_out" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "parent_id" uuid;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "family_id" uuid;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "round" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "decline_cooldown_hours" integer DEFAULT 72 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "max_asks_per_tag" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "do_not_ask" ADD CONSTRAINT "do_not_ask_marked_by_staff_id_fk" FOREIGN KEY ("marked_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payer_stats_activity_idx" ON "payer_stats" USING btree ("last_activity_at" DESC NULLS LAST,"tag");--> statement-breakpoint
CREATE INDEX "payer_stats_collected_idx" ON "payer_stats" USING btree ("collected" DESC NULLS LAST,"tag");--> statement-breakpoint
CREATE INDEX "payer_stats_asked_idx" ON "payer_stats" USING btree ("asked" DESC NULLS LAST,"tag");--> statement-breakpoint
CREATE INDEX "campaigns_family_idx" ON "campaigns" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "fund_requests_payer_idx" ON "fund_requests" USING btree (lower(regexp_replace("tag", '^@', '')),"created_at");--> statement-breakpoint
CREATE INDEX "payments_payer_idx" ON "payments" USING btree (lower(regexp_replace("customer_tag", '^@', '')),"received_at");--> statement-breakpoint
-- Payer counts are kept here, in the transaction of each change (docs/architecture.md, "Ownership"): a request's
-- insert or status change moves its payer's buckets; a payment adds to its payer's payments and collected.
CREATE FUNCTION "payer_stats_on_request"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text := lower(regexp_replace(NEW.tag, '^@', ''));
  nm text := NEW.requested_sent_to ->> 'name';
  was text := CASE WHEN TG_OP = 'UPDATE' THEN OLD.status ELSE NULL END;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status = NEW.status THEN
    -- No count moves; the service may have told us the person's name.
    IF nm IS NOT NULL AND NEW.requested_sent_to IS DISTINCT FROM OLD.requested_sent_to THEN
      UPDATE payer_stats SET name = nm, name_at = NEW.created_at WHERE tag = k AND (name_at IS NULL OR name_at <= NEW.created_at);
    END IF;
    RETURN NEW;
  END IF;
  INSERT INTO payer_stats AS p (tag, name, name_at, asked, accepted, declined, unanswered, failed, last_activity_at)
  VALUES (
    k,
    nm,
    CASE WHEN nm IS NULL THEN NULL ELSE NEW.created_at END,
    (NEW.status IN ('pending', 'accepted', 'declined'))::int - coalesce((was IN ('pending', 'accepted', 'declined'))::int, 0),
    (NEW.status = 'accepted')::int - coalesce((was = 'accepted')::int, 0),
    (NEW.status = 'declined')::int - coalesce((was = 'declined')::int, 0),
    (NEW.status = 'pending')::int - coalesce((was = 'pending')::int, 0),
    (NEW.status = 'failed')::int - coalesce((was = 'failed')::int, 0),
    coalesce(NEW.decided_at, NEW.created_at)
  )
  ON CONFLICT (tag) DO UPDATE SET
    asked = p.asked + EXCLUDED.asked,
    accepted = p.accepted + EXCLUDED.accepted,
    declined = p.declined + EXCLUDED.declined,
    unanswered = p.unanswered + EXCLUDED.unanswered,
    failed = p.failed + EXCLUDED.failed,
    last_activity_at = greatest(p.last_activity_at, EXCLUDED.last_activity_at),
    name = CASE WHEN EXCLUDED.name IS NOT NULL AND (p.name_at IS NULL OR EXCLUDED.name_at >= p.name_at) THEN EXCLUDED.name ELSE p.name END,
    name_at = CASE WHEN EXCLUDED.name IS NOT NULL AND (p.name_at IS NULL OR EXCLUDED.name_at >= p.name_at) THEN EXCLUDED.name_at ELSE p.name_at END;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "fund_requests_payer_stats" AFTER INSERT OR UPDATE OF "status", "requested_sent_to" ON "fund_requests" FOR EACH ROW EXECUTE FUNCTION "payer_stats_on_request"();
--> statement-breakpoint
CREATE FUNCTION "payer_stats_on_payment"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payer_stats AS p (tag, name, name_at, payments, collected, last_activity_at)
  VALUES (lower(regexp_replace(NEW.customer_tag, '^@', '')), NEW.customer_name, NEW.received_at, 1, NEW.settled_amount, NEW.received_at)
  ON CONFLICT (tag) DO UPDATE SET
    payments = p.payments + 1,
    collected = p.collected + EXCLUDED.collected,
    last_activity_at = greatest(p.last_activity_at, EXCLUDED.last_activity_at),
    name = CASE WHEN p.name_at IS NULL OR EXCLUDED.name_at >= p.name_at THEN EXCLUDED.name ELSE p.name END,
    name_at = CASE WHEN p.name_at IS NULL OR EXCLUDED.name_at >= p.name_at THEN EXCLUDED.name_at ELSE p.name_at END;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "payments_payer_stats" AFTER INSERT ON "payments" FOR EACH ROW EXECUTE FUNCTION "payer_stats_on_payment"();
--> statement-breakpoint
-- The payers of the requests and payments already recorded.
INSERT INTO payer_stats (tag, name, name_at, asked, accepted, declined, unanswered, failed, payments, collected, last_activity_at)
SELECT k,
  (array_agg(nm ORDER BY nm_at DESC) FILTER (WHERE nm IS NOT NULL))[1],
  max(nm_at) FILTER (WHERE nm IS NOT NULL),
  sum(asked), sum(accepted), sum(declined), sum(unanswered), sum(failed), sum(paid), sum(collected), max(at)
FROM (
  SELECT lower(regexp_replace(tag, '^@', '')) AS k, requested_sent_to ->> 'name' AS nm, created_at AS nm_at,
    (status IN ('pending', 'accepted', 'declined'))::int AS asked, (status = 'accepted')::int AS accepted,
    (status = 'declined')::int AS declined, (status = 'pending')::int AS unanswered, (status = 'failed')::int AS failed,
    0 AS paid, 0::numeric AS collected, coalesce(decided_at, created_at) AS at
  FROM fund_requests
  UNION ALL
  SELECT lower(regexp_replace(customer_tag, '^@', '')), customer_name, received_at, 0, 0, 0, 0, 0, 1, settled_amount, received_at
  FROM payments
) AS x
GROUP BY k;
