"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";

import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Pager } from "@/components/ui/pager";
import { pagerLinks } from "@/lib/client/http/pager-links";
import { KIND_LABELS, type ExceptionListQuery } from "@/lib/client/exceptions/view";
import { exceptionListQuery } from "@/lib/client/query/options";

import { ExceptionCard } from "./exception-card";
import { exceptionsHref } from "./format";
import { InboxSkeleton } from "./inbox-skeleton";
import { KindFilter } from "./kind-filter";
import { StatusTabs } from "./status-tabs";

// The inbox: status tabs, the kind filter and a page of cards, all from the URL; the `exceptions.changed` live event
// refetches it, so an exception opened or cleared by a job appears or leaves with no reload.

export function ExceptionInbox({ query: current, canAct }: { query: ExceptionListQuery; canAct: boolean }) {
  const router = useRouter();
  const query = useQuery(exceptionListQuery(current));
  // What the last Resolve or Reopen did, said where a screen reader hears it (the card itself leaves the list).
  const [notice, setNotice] = useState("");
  const data = query.data;
  const links = pagerLinks(current.page, data);
  const heading = `${current.status === "open" ? "Open" : "Resolved"}${current.kind ? `: ${KIND_LABELS[current.kind]}` : ""}${current.day ? `, opened on ${current.day}` : ""}`;
  return (
    <div className="space-y-4">
      <StatusTabs query={current} open={data ? { open: data.open, capped: data.openCapped } : null} />
      <KindFilter key={exceptionsHref(current)} query={current} onApply={(next) => router.push(exceptionsHref(next))} />
      {current.day ? (
        <p className="text-sm text-slate-700" data-testid="exceptions-day">
          Opened on {current.day} (from the day book).{" "}
          <Link href={exceptionsHref({ ...current, day: undefined, page: 1 })} className="underline underline-offset-2">
            Show every day
          </Link>
        </p>
      ) : null}
      <p aria-live="polite" className="text-sm text-slate-700" data-testid="exceptions-status">
        {notice}
      </p>
      {/* A failed refetch keeps the exceptions last read; the panel is for a list never read. */}
      {!data ? (
        query.isError ? (
          <ErrorPanel title="Exceptions could not be loaded" message={`${query.error.message} Reload the page to try again.`} />
        ) : (
          <InboxSkeleton />
        )
      ) : (
        <section aria-labelledby="exceptions-heading" className="space-y-3">
          <h2 id="exceptions-heading" className="text-lg font-semibold">
            {heading}{" "}
            <span className="text-base font-normal text-slate-600 tabular-nums">
              ({data.total.toLocaleString("en")}
              {data.totalCapped ? "+" : ""})
            </span>
          </h2>
          {data.items.length === 0 ? (
            <Card className="p-6 text-sm text-slate-700" data-testid="exceptions-empty">
              {emptyText(current, data.total)}
            </Card>
          ) : (
            <ul className="space-y-3" data-testid="exception-list">
              {data.items.map((e) => (
                <ExceptionCard key={e.id} exception={e} canAct={canAct} onChanged={setNotice} />
              ))}
            </ul>
          )}
          {/* Open ones run oldest first, so the next page is newer. */}
          <Pager
            oldestFirst={current.status === "open"}
            newerHref={links.previous ? exceptionsHref({ ...current, page: links.previous }) : null}
            olderHref={links.next ? exceptionsHref({ ...current, page: links.next }) : null}
          >
            {links.label}
          </Pager>
        </section>
      )}
    </div>
  );
}

/** What an empty page means, in words a person can act on. */
function emptyText(query: ExceptionListQuery, total: number): string {
  if (total > 0) return "Nothing on this page: go back to the first page.";
  const kind = query.kind ? `“${KIND_LABELS[query.kind]}” ` : "";
  if (query.status === "open") {
    return query.kind ? `No ${kind}exception is open. Nothing of this kind needs a person.` : "Nothing needs a person. Payments that do not fit appear here.";
  }
  return query.kind
    ? `No ${kind}exception has been resolved yet.`
    : "Nothing has been resolved yet. Exceptions a person resolves, or that clear by themselves, are kept here.";
}
