-- Payer counts (docs/architecture.md, "Ownership"): a request inserted while still being sent no longer makes a payer
-- row of zeros; those already made by a send that was undone are removed.
CREATE OR REPLACE FUNCTION "payer_stats_on_request"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text := lower(regexp_replace(NEW.tag, '^@', ''));
  nm text := NEW.requested_sent_to ->> 'name';
  was text := CASE WHEN TG_OP = 'UPDATE' THEN OLD.status ELSE NULL END;
BEGIN
  -- A request still being sent asks nobody yet; if its send is undone its row is deleted, and no empty payer is left.
  IF TG_OP = 'INSERT' AND NEW.status = 'sending' THEN
    RETURN NEW;
  END IF;
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
DELETE FROM payer_stats p
WHERE p.asked = 0 AND p.failed = 0 AND p.payments = 0
  AND NOT EXISTS (SELECT 1 FROM fund_requests fr WHERE lower(regexp_replace(fr.tag, '^@', '')) = p.tag AND fr.status <> 'sending');
