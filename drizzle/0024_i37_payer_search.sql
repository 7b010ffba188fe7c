-- The payers search (docs/architecture.md "Payers and chasing"): ILIKE '%q%' on the tag and the name reads trigram
-- indexes where pg_trgm is there (Postgres). PGlite loads no pg_trgm, so there the migration makes nothing and the
-- same query scans: its payers are few.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
      CREATE INDEX IF NOT EXISTS "payer_stats_tag_trgm_idx" ON "payer_stats" USING gin ("tag" gin_trgm_ops);
      CREATE INDEX IF NOT EXISTS "payer_stats_name_trgm_idx" ON "payer_stats" USING gin ("name" gin_trgm_ops);
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'pg_trgm not created (%): the payers search scans', SQLERRM;
    END;
  END IF;
END
$$;
