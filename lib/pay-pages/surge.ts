import "server-only";

import { sql } from "drizzle-orm";

import { queryRows, type Db } from "@/lib/db/client";
import { openPayPageSurge } from "@/lib/exceptions/detect";

// A pay page taking far more than it usually does (docs/decisions.md "Pay pages"): a surge is the last hour over 10×
// the page's usual hour of the past week, the usual counted as at least 5 so a new page's first busy hour (a post in a
// big WhatsApp group) is not one. Checked by the send job after each pass, for the pages the pass touched.

const SURGE_FACTOR = 10;
const SURGE_FLOOR = 5;

/** Opens a `pay_page_surge` for each page whose last hour ran over 10× its usual hour of the past week. */
export async function checkSurges(db: Db, pageIds: readonly string[], now: Date): Promise<void> {
  for (const pageId of pageIds) {
    const [row] = await queryRows<{ last_hour: number; week: number; slug: string }>(
      db,
      sql`select count(*) filter (where s.created_at > ${now}::timestamptz - interval '1 hour')::int as last_hour,
            count(*) filter (where s.created_at <= ${now}::timestamptz - interval '1 hour')::int as week, p.slug
          from pay_pages p left join pay_page_submissions s on s.page_id = p.id and s.created_at > ${now}::timestamptz - interval '7 days 1 hour'
          where p.id = ${pageId}::uuid group by p.slug`,
    );
    if (!row) continue;
    const usual = Math.max(SURGE_FLOOR, row.week / (7 * 24));
    if (row.last_hour > SURGE_FACTOR * usual) {
      const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
      await openPayPageSurge(db, { pageId, slug: row.slug, hour, count: row.last_hour, usual });
    }
  }
}
