import Link from "next/link";

export default function PaymentNotFound() {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-xl font-semibold">Payment not found</h1>
      <p className="mt-2 text-slate-700">No payment with that id has been recorded. Check the id, or look in the list.</p>
      <Link href="/payments" className="mt-3 inline-block text-brand-700 underline">
        All payments
      </Link>
    </div>
  );
}
