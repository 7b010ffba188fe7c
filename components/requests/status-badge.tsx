import type { FundRequestView } from "@/lib/requests/view";

const STYLES: Record<FundRequestView["status"], string> = {
  sending: "bg-slate-100 text-slate-800 ring-slate-300",
  pending: "bg-amber-50 text-amber-900 ring-amber-300",
  accepted: "bg-green-50 text-green-900 ring-green-300",
  declined: "bg-red-50 text-red-900 ring-red-300",
  failed: "bg-red-100 text-red-900 ring-red-400",
};

export function StatusBadge({ status }: { status: FundRequestView["status"] }) {
  return (
    <span data-testid="status-badge" data-status={status} className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${STYLES[status]}`}>
      {status}
    </span>
  );
}
