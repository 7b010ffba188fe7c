import { NewRequestForm, type RequestPrefill } from "@/components/requests/new-request-form";
import { requirePageStaff } from "@/lib/auth/page-guard";

export const metadata = { title: "New request" };

/** ?tag=&amount=&description= prefill the form (a failed request's "Try again"); only short plain text is taken. */
function prefillFrom(raw: Record<string, string | string[] | undefined>): RequestPrefill {
  const text = (name: string, max: number) => {
    const value = raw[name];
    return typeof value === "string" && value.length <= max ? value : undefined;
  };
  return { tag: text("tag", 64), amount: text("amount", 32), description: text("description", 280) };
}

export default async function NewRequestPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageStaff("requests.write", "/requests/new");
  const prefill = prefillFrom(await searchParams);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Ask for money</h1>
      <p className="text-sm text-slate-700">The person gets a notification in their app and accepts or declines. You can watch the status live.</p>
      <NewRequestForm prefill={prefill} />
    </div>
  );
}
