"use client";

// The header's navigation: a line of links under the brand and account on wide screens, a menu button and a panel on phones (docs/architecture.md, "The shell").

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useRef, useState, type KeyboardEvent, type ReactNode } from "react";

import { openCountText } from "@/components/exceptions/format";
import { roleMay, type Permission } from "@/lib/client/auth/permissions";
import type { Role } from "@/lib/client/auth/roles";
import { openExceptionsQuery } from "@/lib/client/query/options";

type Group = "home" | "collect" | "books" | "settings";

// Grouped as a finance team works: asking for money, the books, and the settings (docs/decisions.md). Each link
// shows for the roles holding the permission its page needs (lib/client/auth/permissions.ts, docs/architecture.md "Actors").
const LINKS: { href: string; label: string; permission: Permission; group: Group }[] = [
  { href: "/", label: "Overview", permission: "reports.read", group: "home" },
  { href: "/requests", label: "Requests", permission: "requests.read", group: "collect" },
  { href: "/requests/new", label: "New request", permission: "requests.write", group: "collect" },
  { href: "/campaigns", label: "Campaigns", permission: "campaigns.read", group: "collect" },
  { href: "/plans", label: "Plans", permission: "plans.read", group: "collect" },
  { href: "/pay-pages", label: "Pay pages", permission: "pay_pages.read", group: "collect" },
  { href: "/payers", label: "Payers", permission: "payers.read", group: "collect" },
  { href: "/payments", label: "Payments", permission: "payments.read", group: "books" },
  { href: "/exceptions", label: "Exceptions", permission: "exceptions.read", group: "books" },
  { href: "/reports", label: "Day book", permission: "reports.read", group: "books" },
  { href: "/webhooks", label: "Deliveries", permission: "deliveries.read", group: "settings" },
  { href: "/staff", label: "Staff", permission: "staff.manage", group: "settings" },
  { href: "/audit", label: "Audit log", permission: "audit.read", group: "settings" },
  { href: "/account", label: "Account", permission: "account.own", group: "settings" },
];

const GROUPS: { id: Group; label: string }[] = [
  { id: "home", label: "Home" },
  { id: "collect", label: "Collect" },
  { id: "books", label: "Books" },
  { id: "settings", label: "Settings" },
];

/** While the team requires two-step sign-in of someone who has none, their account page is all that opens. */
const ENROLMENT_LINKS = new Set(["/account"]);

export const MENU_ID = "main-menu";

/**
 * The link for the page shown: its own (`aria-current="page"`), or for a page under a section (a request, a
 * payment) the section's, marked `aria-current="true"`. The longest matching link wins ("/requests/new" over "/requests").
 */
export function currentLink(pathname: string, hrefs: readonly string[]): { href: string; exact: boolean } | null {
  let best: string | null = null;
  for (const href of hrefs) {
    const under = href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
    if (under && (best === null || href.length > best.length)) best = href;
  }
  return best === null ? null : { href: best, exact: best === pathname };
}

/**
 * `account` (who is signed in, sign out) sits at the row's end on wide screens and at the panel's foot on phones.
 * The panel is open for the path it was opened on, so it closes by itself after a navigation; Escape closes it too.
 */
export function MainNav({ role, mustEnrol = false, account }: { role: Role; mustEnrol?: boolean; account: ReactNode }) {
  const pathname = usePathname();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const open = openOn === pathname;
  // The exceptions' live open count (the `exceptions.changed` event refetches it); none while only /account opens.
  const exceptions = useQuery({ ...openExceptionsQuery(), enabled: !mustEnrol });
  const openExceptions = exceptions.data && exceptions.data.open > 0 ? openCountText(exceptions.data) : null;
  const links = LINKS.filter((l) => roleMay(role, l.permission) && (!mustEnrol || ENROLMENT_LINKS.has(l.href)));
  const current = currentLink(
    pathname,
    links.map((l) => l.href),
  );
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !open) return;
    setOpenOn(null);
    button.current?.focus();
  };
  const groups = GROUPS.map((g) => ({ ...g, links: links.filter((l) => l.group === g.id) })).filter((g) => g.links.length > 0);
  return (
    <>
      {openExceptions ? (
        // On a phone the open count shows beside the menu button, so it is seen without opening the menu.
        <Link
          href="/exceptions"
          data-testid="exceptions-badge-phone"
          aria-label={`Exceptions, ${openExceptions} open`}
          className="rounded-full bg-red-100 px-2 py-0.5 text-xs leading-5 font-semibold text-red-900 tabular-nums ring-1 ring-red-300 md:hidden"
        >
          {openExceptions} open
        </Link>
      ) : null}
      <button
        ref={button}
        type="button"
        className="inline-flex items-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 md:hidden"
        aria-expanded={open}
        aria-controls={MENU_ID}
        onKeyDown={closeOnEscape}
        onClick={() => setOpenOn(open ? null : pathname)}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
          {open ? (
            <path d="M4.3 4.3a1 1 0 0 1 1.4 0L10 8.6l4.3-4.3a1 1 0 1 1 1.4 1.4L11.4 10l4.3 4.3a1 1 0 0 1-1.4 1.4L10 11.4l-4.3 4.3a1 1 0 0 1-1.4-1.4L8.6 10 4.3 5.7a1 1 0 0 1 0-1.4Z" />
          ) : (
            <path d="M3 5a1 1 0 0 1 1-1h12a1 1 0 1 1 0 2H4a1 1 0 0 1-1-1Zm0 5a1 1 0 0 1 1-1h12a1 1 0 1 1 0 2H4a1 1 0 0 1-1-1Zm1 4a1 1 0 1 0 0 2h12a1 1 0 1 0 0-2H4Z" />
          )}
        </svg>
        Menu
      </button>
      <div id={MENU_ID} onKeyDown={closeOnEscape} className={`${open ? "flex" : "hidden"} w-full flex-col gap-3 border-t border-slate-200 pt-3 md:contents`}>
        {/* Wide screens: the panel's box dissolves into the header's row; the links take a line of their own under it. */}
        <nav aria-label="Main" className="md:order-last md:w-full">
          <ul className="flex flex-col gap-2 text-sm md:flex-row md:flex-wrap md:items-center md:gap-x-2.5 md:gap-y-1">
            {groups.map((g, gi) => (
              <li key={g.id} className={gi > 0 ? "md:border-l md:border-slate-300 md:pl-2.5" : undefined}>
                <span id={`nav-group-${g.id}`} className="block text-xs font-semibold tracking-wide text-slate-600 uppercase md:sr-only">
                  {g.label}
                </span>
                <ul aria-labelledby={`nav-group-${g.id}`} className="flex flex-col md:flex-row md:gap-x-2.5">
                  {g.links.map((l) => {
                    const here = current?.href === l.href;
                    const count = l.href === "/exceptions" ? openExceptions : null;
                    return (
                      <li key={l.href}>
                        <Link
                          href={l.href}
                          aria-current={here ? (current.exact ? "page" : "true") : undefined}
                          aria-label={count ? `${l.label}, ${count} open` : undefined}
                          className={`block py-2 whitespace-nowrap md:py-0 ${here ? "font-semibold text-slate-950 underline decoration-2 underline-offset-4" : "text-slate-700 hover:text-slate-950 hover:underline"}`}
                        >
                          {l.label}
                          {count ? (
                            <span
                              aria-hidden="true"
                              data-testid="exceptions-badge"
                              className="ml-1.5 inline-block rounded-full bg-red-100 px-1.5 text-xs leading-5 font-semibold text-red-900 tabular-nums ring-1 ring-red-300"
                            >
                              {count}
                            </span>
                          ) : null}
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex flex-wrap items-center gap-3 text-sm md:order-1 md:ml-auto md:flex-nowrap">{account}</div>
      </div>
    </>
  );
}
