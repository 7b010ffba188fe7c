// A pay link that leads nowhere: said plainly, with no way into the dashboard (docs/architecture.md "Pay pages").
export default function PayPageNotFound() {
  return (
    <main className="mx-auto w-full max-w-md px-4 py-16 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">No pay page here</h1>
      <p className="mt-2 text-base text-slate-700">There is nothing at this address. Check the link you were given, or ask the business for it again.</p>
    </main>
  );
}
