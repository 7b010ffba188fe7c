import { randomUUID } from "node:crypto";

import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";

import { payerListFromSearch } from "@/lib/client/payers/search";
import { queryRows } from "@/lib/db/client";
import { recordPayment } from "@/lib/payments/record";
import { clientKey } from "@/lib/requests/keys";
import { acceptForPayment, applyServiceState, deleteSending, insertSending, markFailed, markPending } from "@/lib/requests/status";
import { peerTransferPayloadSchema } from "@/lib/service/schemas";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { payload } from "@/tests/support/payloads";
import { insertStaff, newKey } from "@/tests/support/request-deps";

import { clearDoNotAsk, doNotAskRefusal, markDoNotAsk } from "./do-not-ask";
import { payerListSelect, readPayerDetail, readPayerPage } from "./queries";

// Payers (docs/architecture.md "Payers and chasing") on a real database: the counts the triggers keep as requests and payments change, the list's
// search and filters, a payer's history, and do-not-ask.

const LOG = { remoteAddr: "203.0.113.5", signatureOk: true } as const;

describe.each(dbTargets())("payers on $name", (target) => {
  const database = useTestDatabase(target);
  beforeEach(async () => {
    await database.db.execute(sql`delete from payments`);
    await database.db.execute(sql`delete from campaign_rows`);
    await database.db.execute(sql`delete from fund_requests`);
    await database.db.execute(sql`delete from payer_stats`);
    await database.db.execute(sql`delete from do_not_ask`);
  });

  let serial = 0;
  /** A request to `tag` through the status owner's steps: recorded, then taken by the service (pending). */
  async function asked(tag: string, amount = "100.00", createdBy: string | null = null) {
    serial += 1;
    const row = await insertSending(database.db, {
      reference: `fb_${newKey("payer")}`,
      idempotencyKey: clientKey(newKey("payer")),
      tag,
      amount,
      description: "Dues",
      createdBy,
    });
    if (!row) throw new Error("insert refused");
    const requestId = String(900_000 + serial);
    const pending = await markPending(database.db, row.id, requestId);
    if (!pending) throw new Error("not pending");
    return pending;
  }

  const answer = (requestId: string, status: "accepted" | "declined", name: string, at: Date) =>
    applyServiceState(database.db, requestId, {
      status,
      requestedBy: { name: "Biz", tag: "biz" },
      requestedSentTo: { name, tag: "x" },
      serviceCreatedAt: null,
      serviceUpdatedAt: at,
    });

  async function paid(tag: string, settled: number, name = "Ada Obi", uuid = randomUUID()) {
    const body = payload({ uuid, amount: settled + 15, actual_amount: settled + 15, settled_amount: settled, fees: 15 });
    const parsed = peerTransferPayloadSchema.parse({ ...body, customer: { ...body.customer, tag, name } });
    return recordPayment(database.db, parsed, "major", LOG);
  }

  it("counts one payer however the tag is written, each state once, a repeat delivery once, and the median answer time", async () => {
    const { db } = database;
    const a = await asked("@Ada.Obi");
    const b = await asked("ada.obi");
    const c = await asked("ADA.OBI");
    const d = await asked("ada.obi");
    await answer(b.requestId ?? "", "accepted", "Ada Obi", new Date(b.createdAt.getTime() + 60_000));
    await answer(d.requestId ?? "", "declined", "Ada O.", new Date(d.createdAt.getTime() + 120_000));
    // c never reached the service: failed from sending.
    const e = await insertSending(db, {
      reference: `fb_${newKey("f")}`,
      idempotencyKey: clientKey(newKey("f")),
      tag: "Ada.Obi",
      amount: "5.00",
      description: "x",
      createdBy: null,
    });
    await markFailed(db, e?.id ?? "", "The service refused it");
    const uuid = randomUUID();
    expect(await paid("Ada.Obi", 1485, "Ada Obi", uuid)).toBe("recorded");
    expect(await paid("Ada.Obi", 1485, "Ada Obi", uuid)).toBe("duplicate");

    const page = await readPayerPage(
      db,
      payerListFromSearch(() => undefined),
    );
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      tag: "ada.obi",
      asked: 4,
      accepted: 1,
      declined: 1,
      unanswered: 2,
      failed: 1,
      payments: 1,
      collected: "1485.00",
      medianAnswerSeconds: 90,
      doNotAsk: false,
    });
    // The two still unanswered are the first and the third ask, whatever their spelling of the tag.
    const open = await queryRows<{ id: string }>(
      db,
      sql`select id from fund_requests where status = 'pending' and lower(regexp_replace(tag, '^@', '')) = 'ada.obi'`,
    );
    expect(open.map((r) => r.id).sort()).toEqual([a.id, c.id].sort());
  });

  it("a request accepted after its payment arrived moves from unanswered to accepted, and the payment counts once", async () => {
    const { db } = database;
    const request = await asked("late.payer", "250.00");
    const uuid = randomUUID();
    await paid("late.payer", 235, "Late Payer", uuid);
    let payer = (
      await readPayerPage(
        db,
        payerListFromSearch(() => undefined),
      )
    ).items[0];
    expect(payer).toMatchObject({ tag: "late.payer", asked: 1, unanswered: 1, accepted: 0, payments: 1, collected: "235.00", name: "Late Payer" });
    expect(await db.transaction((tx) => acceptForPayment(tx, request, { uuid, receivedAt: new Date() }))).toBe(true);
    // Accepted again (the reconciler saw it too): nothing moves twice.
    await answer(request.requestId ?? "", "accepted", "Late Payer", new Date());
    payer = (
      await readPayerPage(
        db,
        payerListFromSearch(() => undefined),
      )
    ).items[0];
    expect(payer).toMatchObject({ asked: 1, unanswered: 0, accepted: 1, payments: 1, collected: "235.00" });
  });

  it("keeps the counts equal to a recount from the requests and payments (no drift)", async () => {
    const { db } = database;
    for (let i = 0; i < 12; i++) {
      const r = await asked(`drift.${i % 4}`, `${10 + i}.00`);
      if (i % 3 === 0) await answer(r.requestId ?? "", "accepted", `Person ${i}`, new Date());
      if (i % 3 === 1) await answer(r.requestId ?? "", "declined", `Person ${i}`, new Date());
      if (i % 2 === 0) await paid(`DRIFT.${i % 4}`, 7 + i);
    }
    const recount = await queryRows<Record<string, string | number>>(
      db,
      sql`select k as tag, sum(asked)::int as asked, sum(accepted)::int as accepted, sum(declined)::int as declined,
            sum(unanswered)::int as unanswered, sum(paid)::int as payments, sum(collected)::numeric(18,2)::text as collected
          from (
            select lower(regexp_replace(tag, '^@', '')) as k, (status in ('pending','accepted','declined'))::int as asked,
              (status = 'accepted')::int as accepted, (status = 'declined')::int as declined, (status = 'pending')::int as unanswered,
              0 as paid, 0::numeric as collected from fund_requests
            union all
            select lower(regexp_replace(customer_tag, '^@', '')), 0, 0, 0, 0, 1, settled_amount from payments
          ) x group by k order by k`,
    );
    const kept = await queryRows<Record<string, string | number>>(
      db,
      sql`select tag, asked, accepted, declined, unanswered, payments, collected::text as collected from payer_stats order by tag`,
    );
    expect(recount.length).toBe(4);
    expect(kept).toEqual(recount);
  });

  it("a send the budget undid leaves no payer behind: nobody was asked", async () => {
    const row = await insertSending(database.db, {
      reference: `fb_${newKey("undone")}`,
      idempotencyKey: clientKey(newKey("undone")),
      tag: "undone.send",
      amount: "40.00",
      description: "Dues",
      createdBy: null,
    });
    if (!row) throw new Error("insert refused");
    await deleteSending(database.db, row.id);
    expect(await queryRows(database.db, sql`select tag from payer_stats where tag = 'undone.send'`)).toEqual([]);
    expect(
      (
        await readPayerPage(
          database.db,
          payerListFromSearch(() => undefined),
        )
      ).items.map((p) => p.tag),
    ).not.toContain("undone.send");
  });

  it("searches by tag or name, filters unanswered, declined, paid and do-not-ask, and pages", async () => {
    const { db } = database;
    const staff = await insertStaff(db, "Bola Admin");
    const one = await asked("chidi.n");
    await answer(one.requestId ?? "", "declined", "Chidi Nwosu", new Date());
    await asked("funke.a");
    await paid("grace.o", 500, "Grace Okafor");
    await markDoNotAsk(db, "@Chidi.N", "Asked us to stop", staff);
    const tags = async (search: Record<string, string>) =>
      (
        await readPayerPage(
          db,
          payerListFromSearch((n) => search[n]),
        )
      ).items
        .map((p) => p.tag)
        .sort();
    expect(await tags({})).toEqual(["chidi.n", "funke.a", "grace.o"]);
    expect(await tags({ q: "okafor" })).toEqual(["grace.o"]);
    expect(await tags({ q: "@FUNKE" })).toEqual(["funke.a"]);
    expect(await tags({ filter: "unanswered" })).toEqual(["funke.a"]);
    expect(await tags({ filter: "declined" })).toEqual(["chidi.n"]);
    expect(await tags({ filter: "paid" })).toEqual(["grace.o"]);
    expect(await tags({ filter: "do-not-ask" })).toEqual(["chidi.n"]);
    expect(
      (
        await readPayerPage(
          db,
          payerListFromSearch((n) => ({ sort: "collected" })[n]),
        )
      ).items[0]?.tag,
    ).toBe("grace.o");
    expect(
      (
        await readPayerPage(
          db,
          payerListFromSearch((n) => ({ page: "2" })[n]),
        )
      ).items,
    ).toEqual([]);
    // The count stops at its cap (a page's cost must not grow with the payers), and says so.
    expect(
      await readPayerPage(
        db,
        payerListFromSearch(() => undefined),
        2,
      ),
    ).toMatchObject({ total: 2, totalCapped: true });
    expect(
      await readPayerPage(
        db,
        payerListFromSearch(() => undefined),
        3,
      ),
    ).toMatchObject({ total: 3, totalCapped: false });
    // A page past the count's cap is still the page asked for (every payer can be paged to), not the cap's last.
    const past = await readPayerPage(db, { ...payerListFromSearch(() => undefined), page: 2 }, 1);
    expect({ page: past.page, items: past.items.length }).toEqual({ page: 2, items: 0 });
  });

  it("finds a payer by the middle of a tag or name, and takes % and _ in the search literally", async () => {
    const { db } = database;
    await db.execute(
      sql`insert into payer_stats (tag, name, last_activity_at) values
            ('chidinma.okeke', 'Chidinma Okeke', now()), ('ada_obi', 'Ada Obi', now()), ('adaxobi', 'Adax Obi', now()),
            ('bola.ltd', 'Bola 100% Ltd', now()), ('bola.co', 'Bola 1000 Co', now())`,
    );
    const tags = async (q: string) =>
      (
        await readPayerPage(
          db,
          payerListFromSearch((n) => ({ q })[n]),
        )
      ).items
        .map((p) => p.tag)
        .sort();
    expect(await tags("nma.ok")).toEqual(["chidinma.okeke"]);
    expect(await tags("INMA OK")).toEqual(["chidinma.okeke"]);
    expect(await tags("a_o")).toEqual(["ada_obi"]);
    expect(await tags("100%")).toEqual(["bola.ltd"]);
    expect(await tags("%")).toEqual(["bola.ltd"]);
    expect(await tags("_")).toEqual(["ada_obi"]);
  });

  it.runIf(target.name === "postgres")("a search reads the trigram indexes, not every payer (Postgres)", async () => {
    const { db } = database;
    await db.execute(
      sql`insert into payer_stats (tag, name, last_activity_at)
          select substr(md5(g::text), 1, 10) || '.' || g, 'Name ' || substr(md5((g * 7)::text), 1, 8), now() - g * interval '1 minute'
          from generate_series(1, 5000) as g`,
    );
    await db.execute(sql`insert into payer_stats (tag, name, last_activity_at) values ('zqxwv.jones', 'Zqxwv Jones', now())`);
    await db.execute(sql`analyze payer_stats`);
    const plan = await db.transaction(async (tx) => {
      // Both whole reads off: a seq scan, and a walk of the list's order index filtering each payer (which a table this
      // small would otherwise choose). Without a trigram index the planner still falls back to one of them.
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_indexscan = off`);
      const select = payerListSelect(
        tx,
        payerListFromSearch((n) => ({ q: "qxwv" })[n]),
        25,
        0,
      );
      return queryRows<{ "QUERY PLAN": string }>(tx, sql`explain ${select}`);
    });
    expect(
      (
        await readPayerPage(
          db,
          payerListFromSearch((n) => ({ q: "qxwv" })[n]),
        )
      ).items.map((p) => p.tag),
    ).toEqual(["zqxwv.jones"]);
    const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
    expect(text).toContain("payer_stats_tag_trgm_idx");
    expect(text).toContain("payer_stats_name_trgm_idx");
  });

  it("shows a payer's contact from their latest payment, masked for viewers, never the bvn, with their history", async () => {
    const { db } = database;
    await asked("hauwa.b", "40.00");
    await paid("hauwa.b", 25, "Hauwa Bello");
    const admin = await readPayerDetail(db, "hauwa.b", "admin");
    const viewer = await readPayerDetail(db, "hauwa.b", "viewer");
    expect(admin?.contact).toMatchObject({ name: "Hauwa Bello", email: "ada.obi@example.com", phone: "+2348031234567" });
    expect(viewer?.contact?.email).toBe("a•••@example.com");
    expect(viewer?.contact?.phone).toBe("•••••••4567");
    expect(JSON.stringify(admin)).not.toContain("22123456789");
    expect(admin?.requests).toHaveLength(1);
    expect(admin?.payments).toHaveLength(1);
    expect(await readPayerDetail(db, "nobody.here", "admin")).toBeNull();
  });

  it("do not ask: refused with who marked it and when, until cleared", async () => {
    const { db } = database;
    const staff = await insertStaff(db, "Bola Admin");
    await asked("ike.o");
    expect(await doNotAskRefusal(db, "Ike.O", "Africa/Lagos")).toBeNull();
    await markDoNotAsk(db, "@ike.o", "Moved abroad", staff);
    const refusal = await doNotAskRefusal(db, "IKE.O", "Africa/Lagos");
    expect(refusal).toContain("@ike.o asked not to be asked: marked by Bola Admin on");
    expect(refusal).toContain("Moved abroad");
    expect((await readPayerDetail(db, "ike.o", "viewer"))?.doNotAsk).toMatchObject({ markedBy: "Bola Admin", note: "Moved abroad" });
    expect(await clearDoNotAsk(db, "ike.o")).toBe(true);
    expect(await doNotAskRefusal(db, "ike.o", "Africa/Lagos")).toBeNull();
  });
});
