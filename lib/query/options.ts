import { queryOptions } from "@tanstack/react-query";

import type { SessionView } from "@/lib/auth/sessions";
import type { BalanceView } from "@/lib/balance/view";
import { apiFetch } from "@/lib/http/api-fetch";
import { paymentFilterSearch, type PaymentFilter } from "@/lib/payments/filters";
import type { PaymentTotals } from "@/lib/payments/query";
import type { PaymentView } from "@/lib/payments/view";
import type { FundRequestView } from "@/lib/requests/view";

// Shared by server prefetching (same keys, direct data) and the browser (our route handlers).

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export interface RequestListParams {
  status?: string;
  tag?: string;
  page: number;
}

export const keys = {
  balance: ["balance"] as const,
  requests: ["requests"] as const,
  requestList: (p: RequestListParams) => ["requests", "list", { status: p.status ?? "", tag: p.tag ?? "", page: p.page }] as const,
  request: (id: string) => ["requests", "detail", id] as const,
  payments: ["payments"] as const,
  paymentList: (f: PaymentFilter) =>
    ["payments", "list", { verified: f.verified ?? "", q: f.q ?? "", tag: f.tag ?? "", from: f.from ?? "", to: f.to ?? "", page: f.page }] as const,
  payment: (uuid: string) => ["payments", "detail", uuid.toLowerCase()] as const,
  sessions: ["me", "sessions"] as const,
};

export function requestListSearch(p: RequestListParams): string {
  const q = new URLSearchParams();
  if (p.status) q.set("status", p.status);
  if (p.tag) q.set("tag", p.tag);
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

export const requestListQuery = (p: RequestListParams) =>
  queryOptions({
    queryKey: keys.requestList(p),
    queryFn: () => apiFetch<Page<FundRequestView>>(`/api/requests${requestListSearch(p)}`),
  });

export const requestQuery = (id: string) =>
  queryOptions({
    queryKey: keys.request(id),
    queryFn: () => apiFetch<FundRequestView>(`/api/requests/${encodeURIComponent(id)}`),
  });

export interface PaymentPage extends Page<PaymentView> {
  totals: PaymentTotals;
}

export const paymentListQuery = (f: PaymentFilter) =>
  queryOptions({
    queryKey: keys.paymentList(f),
    queryFn: () => apiFetch<PaymentPage>(`/api/payments${paymentFilterSearch(f)}`),
  });

export const paymentQuery = (uuid: string) =>
  queryOptions({
    queryKey: keys.payment(uuid),
    queryFn: () => apiFetch<PaymentView>(`/api/payments/${encodeURIComponent(uuid)}`),
  });

export const sessionsQuery = () =>
  queryOptions({
    queryKey: keys.sessions,
    queryFn: () => apiFetch<Page<SessionView>>("/api/me/sessions"),
  });
