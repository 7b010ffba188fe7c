"use client";

import { usePathname, useRouter } from "next/navigation";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LabelledControl, inputClass } from "@/components/ui/field";
import { Pager } from "@/components/ui/pager";
import { requestListQuery, requestListSearch, type RequestListParams } from "@/lib/client/query/options";
import { REQUEST_STATUSES, requestListQuerySchema } from "@/lib/client/requests/schemas";

import { RequestsTable } from "./requests-table";

// The tag box: the same rule the page and GET /api/requests read it with (a leading @ dropped; anything unusable ignored).
const tagFilterSchema = requestListQuerySchema.pick({ tag: true });
type TagFilterInput = z.input<typeof tagFilterSchema>;
type TagFilter = z.output<typeof tagFilterSchema>;

/** Filters and page live in the URL, so a filtered list can be shared and survives reload. */
export function RequestList({ params }: { params: RequestListParams }) {
  const router = useRouter();
  const pathname = usePathname();
  const tagForm = useForm<TagFilterInput, unknown, TagFilter>({ resolver: zodResolver(tagFilterSchema), defaultValues: { tag: params.tag ?? "" } });
  const query = useQuery(requestListQuery(params));
  const href = (next: RequestListParams) => `${pathname}${requestListSearch(next)}`;
  const go = (next: RequestListParams) => router.push(href(next));
  const pages = query.data ? Math.max(1, Math.ceil(query.data.total / query.data.pageSize)) : 1;

  return (
    <div className="space-y-4">
      <form
        role="search"
        aria-label="Filter requests"
        className="flex flex-wrap items-end gap-3"
        onSubmit={tagForm.handleSubmit(({ tag }) => go({ ...params, tag: tag || undefined, page: 1 }))}
      >
        <LabelledControl id="filter-status" label="Status">
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
        </LabelledControl>
        <LabelledControl id="filter-tag" label="Tag">
          <input id="filter-tag" className={inputClass} placeholder="e.g. ada.obi" {...tagForm.register("tag")} />
        </LabelledControl>
        <Button type="submit">Search</Button>
      </form>
      {query.isError ? (
        <ErrorPanel title="Requests could not be loaded" message={query.error.message} />
      ) : (
        <RequestsTable items={query.data?.items ?? []} empty={query.isPending ? "Loading…" : "No requests match."} />
      )}
      <Pager
        newerHref={params.page > 1 ? href({ ...params, page: params.page - 1 }) : null}
        olderHref={params.page < pages ? href({ ...params, page: params.page + 1 }) : null}
      >
        Page {params.page} of {pages}
        {query.data ? ` · ${query.data.total} request${query.data.total === 1 ? "" : "s"}` : ""}
      </Pager>
    </div>
  );
}
