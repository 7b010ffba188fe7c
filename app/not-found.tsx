import Link from "next/link";

export default function NotFound() {
  return (
    <main className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="mt-2 text-slate-600">There is nothing at this address. Check the link, or go back to the overview.</p>
      <Link href="/" className="mt-4 inline-block text-brand-700 underline">
        Back to the overview
      </Link>
    </main>
  );
}
