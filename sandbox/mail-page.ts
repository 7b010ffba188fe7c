// The consumer app's mailbox (docs/architecture.md "E-mail"): what the sandbox's SMTP sink received. A message's HTML is
// someone else's markup: it is shown only in a sandboxed frame (no script, no form, no same-origin access), escaped into
// its srcdoc, under a policy that allows no script in the page or the frame.
import { escapeHtml, fail, type Reply } from "./http-util";
import type { MailMessage, Mailbox } from "./mailbox";
import { route, type Route } from "./router";

export const MAIL_PER_PAGE = 50;

/** Inherited by the srcdoc frame: even without its sandbox attribute no script would run. Images may load. */
const MAIL_PAGE_POLICY = "script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'self'";

export function mailPageRoutes(mailbox: Mailbox): Route[] {
  return [
    route("GET", "/mail", ({ query }) => page(renderList(mailbox, query.get("to"), query.get("page")))),
    route("GET", "/mail/:id", ({ params }) => {
      const message = mailbox.get(params.id ?? "");
      return message ? page(renderMessage(message)) : fail(404, `No message ${params.id ?? ""} in the sandbox mailbox (it may have been emptied)`);
    }),
  ];
}

function page(body: string): Reply {
  return { status: 200, body, contentType: "text/html; charset=utf-8", headers: { "content-security-policy": MAIL_PAGE_POLICY } };
}

function htmlDocument(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – service sandbox</title>
<style>${STYLES}</style>
</head>
<body>
<main>
${main}
</main>
</body>
</html>
`;
}

function renderList(mailbox: Mailbox, toParam: string | null, pageParam: string | null): string {
  const wanted = toParam?.trim() ?? "";
  const messages = mailbox.list(wanted);
  const pages = Math.max(1, Math.ceil(messages.length / MAIL_PER_PAGE));
  const current = Math.min(pages, Math.max(1, Number.parseInt(pageParam ?? "1", 10) || 1));
  const shown = messages.slice((current - 1) * MAIL_PER_PAGE, current * MAIL_PER_PAGE);
  const link = (p: number, label: string) => `<a href="/mail?page=${p}${wanted ? `&amp;to=${encodeURIComponent(wanted)}` : ""}">${label}</a>`;
  const pager =
    pages > 1
      ? `<nav aria-label="Pages"><p>Messages ${(current - 1) * MAIL_PER_PAGE + 1}–${(current - 1) * MAIL_PER_PAGE + shown.length} of ${messages.length}. ${current > 1 ? link(current - 1, "Newer") : ""} ${current < pages ? link(current + 1, "Older") : ""}</p></nav>`
      : "";
  const rows = shown
    .map(
      (m) =>
        `<tr><td>${escapeHtml(m.to)}</td><td><a href="/mail/${encodeURIComponent(m.id)}">${escapeHtml(m.subject) || "<em>(no subject)</em>"}</a></td><td><time datetime="${escapeHtml(m.at)}">${escapeHtml(m.at)}</time></td></tr>`,
    )
    .join("\n");
  const table = rows
    ? `<table>
<caption>${wanted ? `Messages to ${escapeHtml(wanted)}` : "Every message"}, newest first</caption>
<thead><tr><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Received (UTC)</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : `<p>${wanted ? `No messages to ${escapeHtml(wanted)}.` : "No messages yet."}</p>`;
  return htmlDocument(
    "Mailbox",
    `<h1>Mailbox</h1>
<p>E-mail sent to the sandbox's SMTP sink lands here instead of anyone's inbox; nothing leaves this machine. The newest
1,000 messages are kept until the sandbox stops. <a href="/">Pending fund requests</a></p>
<form method="get" action="/mail"><label for="to-filter">Only messages to</label> <input id="to-filter" name="to" value="${escapeHtml(wanted)}"> <button type="submit">Show</button></form>
${pager}
${table}
${pager}`,
  );
}

function renderMessage(m: MailMessage): string {
  const links = linksIn(m.html ?? "");
  return htmlDocument(
    m.subject || "(no subject)",
    `<p><a href="/mail">Back to the mailbox</a></p>
<h1>${escapeHtml(m.subject) || "<em>(no subject)</em>"}</h1>
<dl>
<dt>From</dt><dd>${escapeHtml(m.from)}</dd>
<dt>To</dt><dd>${escapeHtml(m.to)}</dd>
<dt>Received</dt><dd><time datetime="${escapeHtml(m.at)}">${escapeHtml(m.at)}</time></dd>
</dl>
<h2>As HTML</h2>
${m.html === null ? "<p>This message has no HTML part.</p>" : `<iframe sandbox="" title="The message as HTML" srcdoc="${escapeHtml(m.html)}"></iframe>`}
${links.length > 0 ? `<h2>Links in the message</h2>\n<ul>\n${links.map((href) => `<li><a href="${escapeHtml(href)}" rel="noreferrer">${escapeHtml(href)}</a></li>`).join("\n")}\n</ul>` : ""}
<h2>As text</h2>
${m.text ? `<pre>${escapeHtml(m.text)}</pre>` : "<p>This message has no text part.</p>"}`,
  );
}

const LINK_LIMIT = 50;

/** The message's http(s) links, once each, to follow outside the frame (whose links cannot open anything). */
export function linksIn(html: string): string[] {
  const links = new Set<string>();
  for (const match of html.matchAll(/\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi)) {
    const raw = (match[1] ?? match[2] ?? match[3] ?? "").replaceAll("&amp;", "&").trim();
    try {
      const url = new URL(raw);
      if (url.protocol === "http:" || url.protocol === "https:") links.add(url.href);
    } catch {
      // Not an absolute URL (mailto:, a fragment, a template placeholder): nothing to follow from here.
    }
    if (links.size >= LINK_LIMIT) break;
  }
  return [...links];
}

const STYLES = `
body { font-family: system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1a1d21; line-height: 1.5; }
main { max-width: 56rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.6rem; }
h2 { font-size: 1.2rem; margin-top: 1.5rem; }
table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid #c9ced6; }
caption { text-align: left; font-weight: 600; padding: 0.5rem 0; }
th, td { text-align: left; padding: 0.5rem 0.75rem; border-bottom: 1px solid #e3e6eb; vertical-align: top; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; word-break: break-all; }
iframe { width: 100%; height: 32rem; border: 1px solid #c9ced6; background: #fff; }
pre { white-space: pre-wrap; word-break: break-word; background: #fff; border: 1px solid #c9ced6; padding: 1rem; }
a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid #1a5fb4; outline-offset: 2px; }
button { font: inherit; padding: 0.25rem 1rem; }
`;
