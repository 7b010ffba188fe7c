"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { ErrorPanel } from "@/components/ui/error-panel";
import { inputClass } from "@/components/ui/field";
import { requestListQuery, requestListSearch, type RequestListParams } from "@/lib/queries";
import { REQUEST_STATUSES } from "@/lib/requests/schemas";

import { RequestsTable } from "./requests-table";

/** Filters and page live in the URL, so a filtered list can be shared and survives reload. */
export function RequestList({ params }: { params: RequestListParams }) {
  const router = useRouter();
  const pathname = usePathname();
  const [tag, setTag] = useState(params.tag ?? "");
  const query = useQuery(requestListQuery(params));
  const go = (next: RequestListParams) => router.push(`${pathname}${requestListSearch(next)}`);
  const pages = query.data ? Math.max(1, Math.ceil(query.data.total / query.data.pageSize)) : 1;

  return (
    <div className="space-y-4">
      <form
        role="search"
        aria-label="Filter requests"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          go({ ...params, tag: tag.trim() || undefined, page: 1 });
        }}
      >
        <div>
          <label htmlFor="filter-status" className="block text-sm font-medium text-slate-700">
            Status
          </label>
          <select
            id="filter-status"
            className={inputClass}
            value={params.status ?? ""}
            onChange={(e) => go({ ...params, status: e.target.value || undefined, page: 1 })}
          >
            <option value="">All</option>
            {REQUEST_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="filter-tag" className="block text-sm font-medium text-slate-700">
            Tag
          </label>
          <input id="filter-tag" className={inputClass} value={tag} onChange={(e) => setTag(e.target.value)} placeholder="e.g. ada.obi" />
        </div>
        <button type="submit" className="rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700">
          Search
        </button>
      </form>
      {query.isError ? (
        <ErrorPanel title="Requests could not be loaded" message={query.error.message} />
      ) : (
        <RequestsTable items={query.data?.items ?? []} empty={query.isPending ? "Loading…" : "No requests match."} />
      )}
      <nav aria-label="Pages" className="flex items-center gap-3 text-sm">
        {params.page > 1 ? (
          <Link href={`${pathname}${requestListSearch({ ...params, page: params.page - 1 })}`} className="underline">
            Newer
          </Link>
        ) : null}
        <span>
          Page {params.page} of {pages}
          {query.data ? ` · ${query.data.total} request${query.data.total === 1 ? "" : "s"}` : ""}
        </span>
        {params.page < pages ? (
          <Link href={`${pathname}${requestListSearch({ ...params, page: params.page + 1 })}`} className="underline">
            Older
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
