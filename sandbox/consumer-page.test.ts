// The stand-in consumer app: lists pending requests by person, escapes their text, and its forms work.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "./server";
import { call, startTestSandbox } from "@/tests/support/sandbox";
import * as schema from "@/tests/support/wire-schemas";

const PEER = "/api/v1/transfer/request/peer";
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

async function create(tag: string, amount: number, description: string, meta?: { notificationUrl: string }): Promise<number> {
  const res = await call(sandbox, sandbox.apiUrl, "POST", PEER, { body: { amount, tag, description, ...(meta ? { meta } : {}) } });
  return schema.createdEnvelope.parse(res.json).data.request_id;
}

async function page(query = ""): Promise<string> {
  const res = await fetch(`${sandbox.apiUrl}/${query}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  return res.text();
}

async function statusOf(id: number): Promise<string> {
  const res = await call(sandbox, sandbox.apiUrl, "GET", `${PEER}/${id}`);
  return schema.envelope(schema.fundRequest).parse(res.json).data.request_status;
}

function formAction(html: string, id: number, action: "accept" | "decline"): string {
  const match = new RegExp(`<form method="post" action="(/sandbox/requests/${id}/${action}[^"]*)"`).exec(html);
  if (!match?.[1]) throw new Error(`no ${action} form for request ${id}`);
  return match[1].replaceAll("&amp;", "&");
}

async function submit(action: string, body = "redirect=1"): Promise<Response> {
  return fetch(`${sandbox.apiUrl}${action}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
    redirect: "manual",
  });
}

describe("consumer page", () => {
  it("is an accessible page that says when nothing is pending", async () => {
    // A sandbox of its own: the other tests leave requests pending on the shared one, in whatever order they run.
    const fresh = await startTestSandbox();
    const html = await fetch(`${fresh.apiUrl}/`)
      .then((res) => res.text())
      .finally(() => fresh.close());
    expect(html).toMatch(/<html lang="en">/);
    expect(html).toMatch(/<h1>Pending fund requests<\/h1>/);
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toContain("No pending requests.");
    // A newcomer learns the tags that answer by themselves.
    for (const tag of ["<code>accept.</code>", "<code>decline.</code>", "<code>missing</code>"]) expect(html).toContain(tag);
  });

  it("lists a pending request under its person, with amount, description, business and both buttons", async () => {
    const id = await create("chioma.eze", 2500.5, "Catering deposit");
    const html = await page();
    const section = html.slice(html.indexOf('<section aria-labelledby="user-chioma.eze">'));
    expect(section).toMatch(/<h2 id="user-chioma.eze">[^]*Chioma Eze/);
    expect(section).toContain("NGN 2,500.50");
    expect(section).toContain("Catering deposit");
    expect(section).toContain("Adaeze Foods Ltd");
    expect(formAction(html, id, "accept")).toBe(`/sandbox/requests/${id}/accept?redirect=1`);
    expect(formAction(html, id, "decline")).toBe(`/sandbox/requests/${id}/decline?redirect=1`);
    expect(section).toMatch(/<button type="submit" class="accept">Accept<span class="visually-hidden"> request \d+/);
  });

  it("escapes user text", async () => {
    await create("xss.tester", 1, `<script>alert("x")</script> & 'quotes'`);
    const html = await page();
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;");
    const notice = await page("?notice=%3Cb%3Ehi%3C%2Fb%3E");
    expect(notice).toContain('<p role="status" class="notice">&lt;b&gt;hi&lt;/b&gt;</p>');
  });

  it("accepts through the form, redirects back with a notice and drops the request from the list", async () => {
    const id = await create("tunde.bakare", 99.99, "Form accept");
    const res = await submit(formAction(await page(), id, "accept"));
    expect(res.status).toBe(303);
    const location = res.headers.get("location") ?? "";
    expect(location.startsWith("/")).toBe(true);
    expect(await statusOf(id)).toBe("accepted");
    const after = await page(location.slice(1));
    expect(after).toContain(`Accepted request ${id} from Adaeze Foods Ltd`);
    expect(after).not.toContain(`/sandbox/requests/${id}/accept`);
  });

  it("accepts without sending the payment notice through its third button (a lost webhook)", async () => {
    // Both ask for their notice at a closed port: the plain accept's delivery is recorded, the lost one's is not.
    const meta = { notificationUrl: "http://127.0.0.1:9/hook" };
    const [plain, lost] = [await create("tunde.bakare", 12.5, "Plain notice", meta), await create("tunde.bakare", 12.5, "Lost notice", meta)];
    const html = await page();
    expect(html.slice(html.indexOf("Lost notice"))).toMatch(
      /<input type="hidden" name="webhook" value="0"><button type="submit" class="lost">Accept, lose the notice<span class="visually-hidden"> request \d+/,
    );
    expect((await submit(formAction(html, plain, "accept"))).status).toBe(303);
    expect((await submit(formAction(html, lost, "accept"), "redirect=1&webhook=0")).status).toBe(303);
    expect([await statusOf(plain), await statusOf(lost)]).toEqual(["accepted", "accepted"]);
    const sent = await call(sandbox, sandbox.apiUrl, "GET", "/sandbox/webhooks");
    const ids = (sent.json as { data: { deliveries: { request_id: number }[] } }).data.deliveries.map((d) => d.request_id);
    expect([ids.includes(plain), ids.includes(lost)]).toEqual([true, false]);
  });

  it("declines through the form, and reports a second click instead of failing silently", async () => {
    const id = await create("ada.obi", 5, "Form decline");
    const action = formAction(await page(), id, "decline");
    expect((await submit(action)).status).toBe(303);
    expect(await statusOf(id)).toBe("declined");
    const again = await submit(action);
    expect(again.status).toBe(303);
    expect(decodeURIComponent(again.headers.get("location") ?? "")).toContain("already declined");
  });

  it("serves avatars without a key and 404s bad avatar names", async () => {
    const svg = await fetch(`${sandbox.apiUrl}/avatars/ada.obi.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await svg.text()).toContain('aria-label="Ada Obi"');
    expect((await fetch(`${sandbox.apiUrl}/avatars/missing.x.svg`)).status).toBe(404);
    expect((await fetch(`${sandbox.apiUrl}/avatars/a%20b.svg`)).status).toBe(404);
  });

  it("stays usable with a campaign's worth pending: 50 people a page, newest first, and a tag search", async () => {
    const stamp = Date.now().toString(36);
    for (let i = 0; i < 120; i++) await create(`many${stamp}.${i}`, 100 + i, `Dues ${i}`);
    const first = await page();
    expect(first.match(/<section aria-labelledby=/g)).toHaveLength(50);
    expect(first).toContain(`@many${stamp}.119`);
    expect(first).not.toContain(`@many${stamp}.0<`);
    expect(first).toMatch(/People 1–50 of \d+/);
    const last = await page(`?tag=many${stamp}&page=3`);
    expect(last.match(/<section aria-labelledby=/g)).toHaveLength(20);
    expect(last).toContain(`@many${stamp}.0<`);
    const one = await page(`?tag=${encodeURIComponent(`@many${stamp}.42`)}`);
    expect(one.match(/<section aria-labelledby=/g)).toHaveLength(1);
    expect(one).toContain(`Dues 42`);
  });
});
