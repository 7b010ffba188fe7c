import { NewRequestForm } from "@/components/requests/new-request-form";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { SENDERS } from "@/lib/client/auth/roles";

export const metadata = { title: "New request" };

export default async function NewRequestPage() {
  await requirePageStaff(SENDERS, "/requests/new");
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Ask for money</h1>
      <p className="text-sm text-slate-700">The person gets a notification in their app and accepts or declines. You can watch the status live.</p>
      <NewRequestForm />
    </div>
  );
}
