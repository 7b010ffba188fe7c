// Pay pages in the e2e suites (docs/architecture.md "Pay pages"): a page made through the dashboard's route, and the
// public form's POST with a challenge fetched from the app and solved here as a payer's browser would.
import { expect, type APIRequestContext } from "@playwright/test";
import type { Challenge } from "altcha-lib";

import { solvedChallenge } from "../tests/support/pay-solve";
import { fakeAddress } from "../tests/support/sign-in";
import { BASE_URL } from "./support";

/** A fresh challenge of the app's, solved: the form's `altcha` value. */
export async function solvedAltcha(ctx: APIRequestContext): Promise<string> {
  const res = await ctx.get("/api/public/pay/challenge");
  expect(res.status(), await res.text()).toBe(200);
  return solvedChallenge(((await res.json()) as { data: Challenge }).data);
}

/** A pay page made by `admin` (a fixed ₦5 unless `over` says otherwise): its id and slug. */
export async function makePayPage(admin: APIRequestContext, over: Record<string, unknown> = {}): Promise<{ id: string; slug: string }> {
  const slug = `e2e-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const res = await admin.post("/api/pay-pages", { headers: { Origin: BASE_URL }, data: { slug, title: "E2E dues", amount: { fixed: "5" }, ...over } });
  expect(res.status(), await res.text()).toBe(201);
  return { id: ((await res.json()) as { data: { id: string } }).data.id, slug };
}

/** The public form's POST for `tag`, from an address of its own (the e2e server trusts one proxy). */
export async function submitPayPage(ctx: APIRequestContext, slug: string, tag: string) {
  return ctx.post(`/api/public/pay/${slug}`, {
    headers: { Origin: BASE_URL, "x-forwarded-for": fakeAddress() },
    data: { tag, fields: [], altcha: await solvedAltcha(ctx) },
  });
}
