import Link from "next/link";

export default function Forbidden() {
  return (
    <main className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-semibold">You do not have access to this page</h1>
      <p className="mt-2 text-slate-600">Your role does not allow it. Ask an admin if you need access.</p>
      <Link href="/" className="mt-4 inline-block text-brand-700 underline">
        Back to the overview
      </Link>
    </main>
  );
}
