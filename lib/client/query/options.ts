import { queryOptions } from "@tanstack/react-query";
import { payerListSearch, type PayerListQuery } from "@/lib/client/payers/search";
import { payerKey } from "@/lib/client/payers/tag";
import type { PayerDetail, PayerPage } from "@/lib/client/payers/view";
import type { BoardView, PlanListItem, PlanView } from "@/lib/client/plans/view";

import type { SessionView } from "@/lib/auth/sessions";
import type { BalanceView } from "@/lib/balance/view";
import type { CampaignRowView, CampaignView, RowFilter } from "@/lib/client/campaigns/view";
import { apiFetch } from "@/lib/client/http/api-fetch";
import type { Page } from "@/lib/client/http/page-param";
import { paymentFilterSearch } from "@/lib/client/payments/filter-search";
import type { PaymentFilter } from "@/lib/client/payments/filters";
import type { DeskTotals } from "@/lib/payments/desk";
import type { PaymentPage, PaymentView, SettledDay } from "@/lib/payments/view";
import { requestListSearch } from "@/lib/client/requests/list-search";
import type { RequestListQuery } from "@/lib/client/requests/schemas";
import type { FundRequestView, RequestPage } from "@/lib/requests/view";
import type { DayBook } from "@/lib/client/reports/daily";
import { exceptionListSearch, type ExceptionListQuery, type ExceptionPage, type ExceptionView, type LinkSuggestion } from "@/lib/client/exceptions/view";
import { dayBookSearch } from "@/lib/client/reports/range";
import type { NotificationPage, NotificationQuery } from "@/lib/client/notifications/view";
import type { ApiKeyView } from "@/lib/client/api-keys/schemas";
import type { DeliveryView, EndpointView } from "@/lib/client/outbound/schemas";
import type { PayPageView } from "@/lib/client/pay-pages/view";

// The one definition of every query: its key and how the browser reads it (our route handlers). A page's server
// component prefetches the same key with the same read function its route handler calls (docs/architecture.md,
// "One data path per screen"); live events invalidate keys by these builders (lib/client/live/effects.ts).

export interface CampaignRowsParams {
  status?: RowFilter;
  page: number;
}

// Every list of a kind sits under one prefix ("…", "list") and every detail under ("…", "detail", id), so an
// event invalidates all pages of a list, or one record and what hangs under it, by prefix.
export const keys = {
  balance: ["balance"] as const,
  requestLists: ["requests", "list"] as const,
  requestList: (p: RequestListQuery) =>
    ["requests", "list", { status: p.status ?? "", tag: p.tag ?? "", campaign: p.campaign ?? "", from: p.from ?? "", to: p.to ?? "", page: p.page }] as const,
  request: (id: string) => ["requests", "detail", id] as const,
  /** The payments lists: the payments page's table and the overview's recent payments (its first page). */
  paymentLists: ["payments", "list"] as const,
  paymentList: (f: PaymentFilter) =>
    ["payments", "list", { verified: f.verified ?? "", q: f.q ?? "", tag: f.tag ?? "", from: f.from ?? "", to: f.to ?? "", page: f.page }] as const,
  /** The payments page's chart: only a new payment changes it (never a link or a verification). */
  settledPerDay: ["payments", "settled-per-day"] as const,
  /** The overview's money panel: a new payment changes its totals, a request's answer its outstanding amount. */
  desk: ["payments", "desk"] as const,
  payment: (uuid: string) => ["payments", "detail", uuid.toLowerCase()] as const,
  campaignLists: ["campaigns", "list"] as const,
  campaignList: (page: number) => ["campaigns", "list", { page }] as const,
  /** One campaign; its rows sit under it, so invalidating this key re-reads the whole campaign page. */
  campaign: (id: string) => ["campaigns", "detail", id.toLowerCase()] as const,
  campaignRows: (id: string, p: CampaignRowsParams) => ["campaigns", "detail", id.toLowerCase(), "rows", { status: p.status ?? "", page: p.page }] as const,
  sessions: ["me", "sessions"] as const,
  /** The payers list and one payer: a payment or a request's answer changes their counts. */
  payers: ["payers"] as const,
  payerLists: ["payers", "list"] as const,
  payerList: (p: PayerListQuery) => ["payers", "list", { q: p.q ?? "", filter: p.filter ?? "", sort: p.sort, page: p.page }] as const,
  payer: (tag: string) => ["payers", "detail", payerKey(tag)] as const,
  /** Plans: a period's requests and payments change its board, its periods' counts and the list's last period. */
  plans: ["plans"] as const,
  planLists: ["plans", "list"] as const,
  planList: (page: number) => ["plans", "list", { page }] as const,
  /** One plan; its dues board sits under it, so invalidating this key re-reads the whole plan page. */
  plan: (id: string) => ["plans", "detail", id.toLowerCase()] as const,
  /** The plan's view with one page of its roster (`?members=`), under the plan's key. */
  planView: (id: string, members = 1) => ["plans", "detail", id.toLowerCase(), "view", { members }] as const,
  planBoard: (id: string, owing: boolean, page = 1) => ["plans", "detail", id.toLowerCase(), "board", { owing, page }] as const,
  /** The day book of /reports, one per range (both days given: the page fills in the defaults). */
  dayBooks: ["reports", "daily"] as const,
  dayBook: (r: { from: string; to: string }) => ["reports", "daily", { from: r.from, to: r.to }] as const,
  /** The exceptions inbox, one exception (with its link suggestions) and the navigation's open count. */
  exceptions: ["exceptions"] as const,
  /** The person's notifications: the bell's unread count and the notifications page's pages. */
  notifications: ["notifications"] as const,
  /** Outgoing webhooks: the endpoints, and each endpoint's deliveries under it. */
  endpoints: ["webhook-endpoints"] as const,
  /** The API keys (admins): no live event names keys, a change on the page invalidates it. */
  apiKeys: ["api-keys"] as const,
  /** The pay pages with their counts: a change on the page invalidates it. */
  payPages: ["pay-pages"] as const,
  endpointDeliveries: (id: string, p: { status: string; page: number }) => ["webhook-endpoints", id, "deliveries", p] as const,
  notificationCount: ["notifications", "count"] as const,
  notificationList: (p: { unread: boolean; page: number }) => ["notifications", "list", { unread: p.unread, page: p.page }] as const,
  exceptionList: (p: ExceptionListQuery) => ["exceptions", "list", { status: p.status, kind: p.kind ?? "", day: p.day ?? "", page: p.page }] as const,
  exception: (id: string) => ["exceptions", "detail", id.toLowerCase()] as const,
  openExceptions: ["exceptions", "open-count"] as const,
};

/**
 * The query string of a plan's dues board (the page's URL, the API's, and its CSV): `?owing=1` for those who owe only,
 * `page=` past the first page of members (the CSV has no page: it is every member).
 */
export function planBoardSearch(p: { owing: boolean; page?: number; format?: "csv" }): string {
  const q = new URLSearchParams();
  if (p.owing) q.set("owing", "1");
  if (p.page !== undefined && p.page > 1 && !p.format) q.set("page", String(p.page));
  if (p.format) q.set("format", p.format);
  const text = q.toString();
  return text ? `?${text}` : "";
}

/**
 * The query string of a plan's page: the board's (`owing=1`, `page=`) and the roster's page (`members=`, past the
 * first), each left out at its default. GET, PATCH /api/plans/:id and POST …/run read `members` alone.
 */
export function planPageSearch(p: { owing?: boolean; page?: number; members?: number }): string {
  const q = new URLSearchParams(planBoardSearch({ owing: p.owing ?? false, page: p.page }));
  if (p.members !== undefined && p.members > 1) q.set("members", String(p.members));
  const text = q.toString();
  return text ? `?${text}` : "";
}

/** The overview's recent payments: the first page of the unfiltered payments list (the same query as /payments opens with). */
export const RECENT_PAYMENTS_FILTER: PaymentFilter = { page: 1 };

/** The query string of a campaign's rows (the page's URL and GET /api/campaigns/:id/rows): each part left out at its default. */
export function campaignRowsSearch(p: CampaignRowsParams): string {
  const q = new URLSearchParams();
  if (p.status) q.set("status", p.status);
  if (p.page > 1) q.set("page", String(p.page));
  const text = q.toString();
  return text ? `?${text}` : "";
}

export const balanceQuery = () =>
  queryOptions({
    queryKey: keys.balance,
    queryFn: () => apiFetch<BalanceView>("/api/balance"),
    staleTime: 5_000,
  });

export const requestListQuery = (p: RequestListQuery) =>
  queryOptions({
    queryKey: keys.requestList(p),
    queryFn: () => apiFetch<RequestPage>(`/api/requests${requestListSearch(p)}`),
  });

export const requestQuery = (id: string) =>
  queryOptions({
    queryKey: keys.request(id),
    queryFn: () => apiFetch<FundRequestView>(`/api/requests/${encodeURIComponent(id)}`),
  });

export const paymentListQuery = (f: PaymentFilter) =>
  queryOptions({
    queryKey: keys.paymentList(f),
    queryFn: () => apiFetch<PaymentPage>(`/api/payments${paymentFilterSearch(f)}`),
  });

export const settledPerDayQuery = () =>
  queryOptions({
    queryKey: keys.settledPerDay,
    queryFn: () => apiFetch<SettledDay[]>("/api/payments/settled-per-day"),
  });

export const paymentQuery = (uuid: string) =>
  queryOptions({
    queryKey: keys.payment(uuid),
    queryFn: () => apiFetch<PaymentView>(`/api/payments/${encodeURIComponent(uuid)}`),
  });

export const campaignListQuery = (page: number) =>
  queryOptions({
    queryKey: keys.campaignList(page),
    queryFn: () => apiFetch<Page<CampaignView>>(`/api/campaigns${page > 1 ? `?page=${page}` : ""}`),
  });

export const campaignQuery = (id: string) =>
  queryOptions({
    queryKey: keys.campaign(id),
    queryFn: () => apiFetch<CampaignView>(`/api/campaigns/${encodeURIComponent(id)}`),
  });

export const campaignRowsQuery = (id: string, p: CampaignRowsParams) =>
  queryOptions({
    queryKey: keys.campaignRows(id, p),
    queryFn: () => apiFetch<Page<CampaignRowView>>(`/api/campaigns/${encodeURIComponent(id)}/rows${campaignRowsSearch(p)}`),
  });

export const sessionsQuery = () =>
  queryOptions({
    queryKey: keys.sessions,
    queryFn: () => apiFetch<Page<SessionView>>("/api/me/sessions"),
  });

/** The overview's money panel (GET /api/desk): today, this week, this month and what is outstanding, in TIMEZONE days. */
export function deskQuery() {
  return queryOptions({ queryKey: keys.desk, queryFn: () => apiFetch<DeskTotals>("/api/desk") });
}

export const payerListQuery = (p: PayerListQuery) =>
  queryOptions({
    queryKey: keys.payerList(p),
    queryFn: () => apiFetch<PayerPage>(`/api/payers${payerListSearch(p)}`),
  });

export const payerQuery = (tag: string) =>
  queryOptions({
    queryKey: keys.payer(tag),
    queryFn: () => apiFetch<PayerDetail>(`/api/payers/${encodeURIComponent(payerKey(tag))}`),
  });

export const planListQuery = (page: number) =>
  queryOptions({
    queryKey: keys.planList(page),
    queryFn: () => apiFetch<Page<PlanListItem>>(`/api/plans${page > 1 ? `?page=${page}` : ""}`),
  });

export const planQuery = (id: string, members = 1) =>
  queryOptions({
    queryKey: keys.planView(id, members),
    queryFn: () => apiFetch<PlanView>(`/api/plans/${encodeURIComponent(id)}${planPageSearch({ members })}`),
  });

export const planBoardQuery = (id: string, owing: boolean, page = 1) =>
  queryOptions({
    queryKey: keys.planBoard(id, owing, page),
    queryFn: () => apiFetch<BoardView>(`/api/plans/${encodeURIComponent(id)}/board${planBoardSearch({ owing, page })}`),
  });

/** The day book (GET /api/reports/daily) of a range whose defaults the page has filled in, so every render asks the same days. */
export const dayBookQuery = (r: { from: string; to: string }) =>
  queryOptions({
    queryKey: keys.dayBook(r),
    queryFn: () => apiFetch<DayBook>(`/api/reports/daily${dayBookSearch(r)}`),
  });

export const exceptionListQuery = (p: ExceptionListQuery) =>
  queryOptions({
    queryKey: keys.exceptionList(p),
    queryFn: () => apiFetch<ExceptionPage>(`/api/exceptions${exceptionListSearch(p)}`),
  });

export const exceptionQuery = (id: string) =>
  queryOptions({
    queryKey: keys.exception(id),
    queryFn: () => apiFetch<{ exception: ExceptionView; suggestions: LinkSuggestion[] }>(`/api/exceptions/${encodeURIComponent(id)}`),
  });

/** The navigation's badge: every open exception, counted to 99 ("99+" past that). */
export const openExceptionsQuery = () =>
  queryOptions({
    queryKey: keys.openExceptions,
    queryFn: () => apiFetch<{ open: number; capped: boolean }>("/api/exceptions/count"),
    staleTime: 30_000,
  });

/** The bell's unread count (the `notification.created` event refetches it; reading marks it down). */
export const unreadNotificationsQuery = () =>
  queryOptions({
    queryKey: keys.notificationCount,
    queryFn: async () => (await apiFetch<NotificationPage>("/api/notifications?unread=1&page=1")).unread,
    staleTime: 30_000,
  });

export const notificationListQuery = (p: NotificationQuery) =>
  queryOptions({
    queryKey: keys.notificationList(p),
    queryFn: () => apiFetch<NotificationPage>(`/api/notifications?${p.unread ? "unread=1&" : ""}page=${p.page}`),
  });

export const apiKeysQuery = () =>
  queryOptions({
    queryKey: keys.apiKeys,
    queryFn: async () => (await apiFetch<{ items: ApiKeyView[] }>("/api/api-keys")).items,
  });

export const payPagesQuery = () =>
  queryOptions({
    queryKey: keys.payPages,
    queryFn: async () => (await apiFetch<{ pages: PayPageView[] }>("/api/pay-pages")).pages,
  });

export const endpointsQuery = () =>
  queryOptions({
    queryKey: keys.endpoints,
    queryFn: async () => (await apiFetch<{ items: EndpointView[] }>("/api/webhook-endpoints")).items,
  });

export const endpointDeliveriesQuery = (id: string, p: { status: string; page: number }) =>
  queryOptions({
    queryKey: keys.endpointDeliveries(id, p),
    queryFn: () =>
      apiFetch<{ items: DeliveryView[]; page: number; pageSize: number; total: number }>(
        `/api/webhook-endpoints/${encodeURIComponent(id)}/deliveries?${p.status ? `status=${p.status}&` : ""}page=${p.page}`,
      ),
    // Attempts happen in the background: the log is re-read while it is open.
    refetchInterval: 5_000,
  });
