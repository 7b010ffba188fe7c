// A stand-in for the consumer app: the person asked for money accepts or declines here.
import { avatarSvg } from "./avatar";
import { deriveConsumer, isMissingTag, TAG_PATTERN } from "./consumers";
import { formatBalance } from "./format";
import { escapeHtml, fail, html, type Reply } from "./http-util";
import { route, type Route } from "./router";
import { CURRENCY, type Store } from "./state";
import type { FundRequest } from "./types";

export function consumerRoutes(store: Store): Route[] {
  return [
    route("GET", "/", ({ query }) => html(renderPage(store, query.get("notice"), query.get("tag"), query.get("page")))),
    route("GET", "/avatars/:file", ({ params }) => avatar(store, params.file ?? "")),
  ];
}

function avatar(store: Store, file: string): Reply {
  const tag = file.endsWith(".svg") ? file.slice(0, -".svg".length) : "";
  if (!TAG_PATTERN.test(tag) || isMissingTag(tag)) return fail(404, `No avatar for ${file}`);
  const person = store.consumers.get(tag) ?? deriveConsumer(tag);
  return { status: 200, body: avatarSvg(person.name, tag), contentType: "image/svg+xml; charset=utf-8" };
}

function displayAmount(request: FundRequest): string {
  return formatBalance(CURRENCY, Number(request.amountKobo));
}

// With thousands pending (a campaign), the page shows people 50 at a time, newest first, and finds one by tag.
export const PEOPLE_PER_PAGE = 50;

function renderPage(store: Store, notice: string | null, tagFilter: string | null, pageParam: string | null): string {
  const byUser = new Map<string, FundRequest[]>();
  const wanted = tagFilter?.trim().replace(/^@/, "").toLowerCase() || null;
  for (const request of store.requests.values()) {
    if (request.status !== "pending") continue;
    if (wanted && !request.sentTo.tag.toLowerCase().includes(wanted)) continue;
    const list = byUser.get(request.sentTo.tag) ?? [];
    list.push(request);
    byUser.set(request.sentTo.tag, list);
  }
  const people = [...byUser.values()].reverse();
  const pages = Math.max(1, Math.ceil(people.length / PEOPLE_PER_PAGE));
  const page = Math.min(pages, Math.max(1, Number.parseInt(pageParam ?? "1", 10) || 1));
  const shown = people.slice((page - 1) * PEOPLE_PER_PAGE, page * PEOPLE_PER_PAGE);
  const sections = shown.map((requests) => renderUser(requests)).join("\n");
  const link = (p: number, label: string) => `<a href="/?page=${p}${wanted ? `&amp;tag=${encodeURIComponent(wanted)}` : ""}">${label}</a>`;
  const pager =
    pages > 1
      ? `<nav aria-label="Pages"><p>People ${(page - 1) * PEOPLE_PER_PAGE + 1}–${(page - 1) * PEOPLE_PER_PAGE + shown.length} of ${people.length}. ${page > 1 ? link(page - 1, "Newer") : ""} ${page < pages ? link(page + 1, "Older") : ""}</p></nav>`
      : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pending fund requests – service sandbox</title>
<style>${STYLES}</style>
</head>
<body>
<main>
<h1>Pending fund requests</h1>
<p>This page stands in for the consumer app. Each person below has been asked for money; accept or decline on their behalf. <a href="/">Reload</a> to see new requests. E-mail the dashboard sends is in the <a href="/mail">mailbox</a>.</p>
<details open>
<summary>Tags that act by themselves</summary>
<ul>
<li><code>accept.</code><em>anything</em> (for example <code>accept.ada</code>): accepts about a second after being asked, then the payment notice follows, as a person paying at once would.</li>
<li><code>decline.</code><em>anything</em>: declines about a second after being asked (no payment notice: the dashboard finds out by asking).</li>
<li><code>missing</code><em>anything</em> (for example <code>missing.bola</code>): no such user; the service refuses the request.</li>
<li>Any other tag is a made-up person who waits here for you to accept or decline.</li>
</ul>
</details>
${notice ? `<p role="status" class="notice">${escapeHtml(notice)}</p>` : ""}
<form method="get" action="/"><label for="tag-filter">Find a person by tag</label> <input id="tag-filter" name="tag" value="${escapeHtml(wanted ?? "")}"> <button type="submit">Find</button></form>
${pager}
${sections || "<p>No pending requests.</p>"}
${pager}
</main>
</body>
</html>
`;
}

function renderUser(requests: FundRequest[]): string {
  const person = requests[0]?.sentTo;
  if (!person) return "";
  const headingId = `user-${person.tag}`;
  return `<section aria-labelledby="${escapeHtml(headingId)}">
<h2 id="${escapeHtml(headingId)}"><img src="/avatars/${encodeURIComponent(person.tag)}.svg" alt="" width="32" height="32"> ${escapeHtml(person.name)} <span class="tag">@${escapeHtml(person.tag)}</span></h2>
<ul>
${requests.map((r) => renderRequest(r)).join("\n")}
</ul>
</section>`;
}

function renderRequest(request: FundRequest): string {
  const amount = escapeHtml(displayAmount(request));
  const from = escapeHtml(request.requestedBy.name);
  const context = `request ${request.id}, ${amount} from ${from}`;
  // `lost`: accepted and paid, but the payment notice is never sent (a lost webhook, for the books' exceptions).
  const button = (action: "accept" | "decline", label: string, lost = false) =>
    `<form method="post" action="/sandbox/requests/${request.id}/${action}?redirect=1">` +
    `<input type="hidden" name="redirect" value="1">${lost ? `<input type="hidden" name="webhook" value="0">` : ""}` +
    `<button type="submit" class="${lost ? "lost" : action}">${label}<span class="visually-hidden"> ${context}</span></button></form>`;
  return `<li>
<h3>${amount}</h3>
<dl>
<dt>Description</dt><dd>${escapeHtml(request.description) || "<em>(none)</em>"}</dd>
<dt>Requested by</dt><dd>${from} <span class="tag">@${escapeHtml(request.requestedBy.tag)}</span></dd>
<dt>Request</dt><dd>#${request.id}, <time datetime="${escapeHtml(request.createdAt)}">${escapeHtml(request.createdAt)}</time></dd>
</dl>
<div class="actions">${button("accept", "Accept")}${button("decline", "Decline")}${button("accept", "Accept, lose the notice", true)}</div>
</li>`;
}

const STYLES = `
body { font-family: system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1a1d21; line-height: 1.5; }
main { max-width: 44rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.6rem; }
h2 { display: flex; align-items: center; gap: 0.5rem; font-size: 1.2rem; }
h2 img { border-radius: 50%; }
ul { list-style: none; padding: 0; }
li { background: #fff; border: 1px solid #c9ced6; border-radius: 0.5rem; padding: 1rem; margin-bottom: 1rem; }
h3 { margin: 0 0 0.5rem; font-size: 1.1rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0 0 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
.tag { color: #4a5260; font-weight: normal; font-size: 0.9em; }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; }
button { font: inherit; padding: 0.5rem 1.25rem; border-radius: 0.375rem; border: 2px solid transparent; cursor: pointer; }
button.accept { background: #146c2e; color: #fff; }
button.decline { background: #fff; color: #a3192b; border-color: #a3192b; }
button.lost { background: #fff; color: #4a5260; border-color: #4a5260; }
button:focus-visible, a:focus-visible { outline: 3px solid #1a5fb4; outline-offset: 2px; }
.notice { background: #e7f1fd; border-left: 4px solid #1a5fb4; padding: 0.75rem 1rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
`;
