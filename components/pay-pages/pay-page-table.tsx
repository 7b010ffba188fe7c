"use client";

import Link from "next/link";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { DataTable, Td, type Column } from "@/components/ui/table";
import { formatMajor } from "@/lib/client/money";
import type { PayPageView } from "@/lib/client/pay-pages/view";

import { STATE_WORDS, conversionText, posterHref, publicPath, qrPngHref, qrSvgHref } from "./format";

// The pay pages on /pay-pages, newest first: each with its address, state, amount, what it brought in, its QR code
// and poster, and for those who manage pages, turning it on or off and changing it.

const COLUMNS: readonly Column[] = [
  { label: "Page", lead: true },
  { label: "Amount", align: "right", lead: true },
  { label: "Views", align: "right" },
  { label: "Submissions", align: "right" },
  { label: "Requests sent", align: "right" },
  { label: "Accepted", align: "right" },
  { label: "Declined", align: "right" },
  { label: "Collected", align: "right" },
  { label: "Conversion", align: "right" },
];

const count = (n: number) => n.toLocaleString("en");
// At least 24 px tall (WCAG 2.2 target size): these small links sit close together.
const linkClass = "inline-flex min-h-6 items-center text-brand-700 underline-offset-2 hover:underline";

function Amount({ amount }: { amount: PayPageView["amount"] }) {
  if ("fixed" in amount) return <>{formatMajor("NGN", amount.fixed)}</>;
  return (
    <>
      <span className="block">{formatMajor("NGN", amount.min)} –</span>
      <span className="block">{formatMajor("NGN", amount.max)}</span>
    </>
  );
}

export function PayPageTable({
  pages,
  canManage,
  busy,
  onToggle,
  onEdit,
}: {
  pages: PayPageView[];
  canManage: boolean;
  busy: boolean;
  onToggle: (page: PayPageView) => void;
  onEdit: (page: PayPageView) => void;
}) {
  const columns = canManage ? [...COLUMNS, "Actions"] : COLUMNS;
  return (
    <DataTable
      label="Pay pages"
      caption="Pay pages, newest first"
      columns={columns}
      empty={pages.length === 0 ? (canManage ? "No pay pages yet: make the first one below." : "No pay pages yet.") : undefined}
    >
      {pages.map((p) => {
        const state = STATE_WORDS[p.state];
        return (
          <tr key={p.id} data-testid="pay-page-row" data-slug={p.slug} data-state={p.state} className="align-top">
            <Td className="min-w-44">
              <span className="block font-medium">{p.title}</span>
              <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1">
                <Badge tone={state.tone} title={state.hint}>
                  {state.label}
                </Badge>
                {p.plan ? <span className="text-xs text-slate-600">Joins {p.plan.name}</span> : null}
              </span>
              <a href={p.url} className={`mt-1 font-mono text-xs break-all ${linkClass}`} target="_blank" rel="noopener noreferrer">
                {publicPath(p.slug)}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
              {p.expiresAt ? (
                <span className="mt-1 block text-xs text-slate-600">
                  {p.state === "expired" ? "Closed" : "Closes"} <LocalTime iso={p.expiresAt} />
                </span>
              ) : null}
              {p.maxPayments !== null ? <span className="block text-xs text-slate-600">At most {count(p.maxPayments)} payments</span> : null}
              <span className="mt-1 flex flex-wrap gap-x-3 text-xs">
                <a href={qrSvgHref(p.id)} className={linkClass}>
                  QR SVG<span className="sr-only"> of {p.title}</span>
                </a>
                <a href={qrPngHref(p.id)} className={linkClass}>
                  QR PNG<span className="sr-only"> of {p.title}</span>
                </a>
                <Link href={posterHref(p.id)} className={linkClass}>
                  Poster<span className="sr-only"> of {p.title}</span>
                </Link>
              </span>
            </Td>
            <Td className="text-right whitespace-nowrap tabular-nums">
              <Amount amount={p.amount} />
            </Td>
            <Td className="text-right tabular-nums">{count(p.counts.views)}</Td>
            <Td className="text-right tabular-nums">{count(p.counts.submissions)}</Td>
            <Td className="text-right tabular-nums">{count(p.counts.requests)}</Td>
            <Td className="text-right tabular-nums">{count(p.counts.accepted)}</Td>
            <Td className="text-right tabular-nums">{count(p.counts.declined)}</Td>
            <Td className="text-right whitespace-nowrap tabular-nums">{formatMajor("NGN", p.counts.collected)}</Td>
            <Td className="text-right tabular-nums">{conversionText(p.counts.conversion)}</Td>
            {canManage ? (
              <Td>
                <div className="flex flex-wrap gap-2">
                  <Button
                    variant="quiet"
                    className="whitespace-nowrap"
                    disabled={busy}
                    onClick={() => onToggle(p)}
                    aria-label={`${p.active ? "Turn off" : "Turn on"} ${p.title}`}
                  >
                    {p.active ? "Turn off" : "Turn on"}
                  </Button>
                  <Button variant="quiet" disabled={busy} onClick={() => onEdit(p)} aria-label={`Change ${p.title}`}>
                    Change
                  </Button>
                </div>
              </Td>
            ) : null}
          </tr>
        );
      })}
    </DataTable>
  );
}
