/** Shown to a person the team requires two-step sign-in of, until they have set it up. */
export function EnrolBanner() {
  return (
    <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="enrol-banner">
      <h2 className="font-semibold">Your team requires two-step sign-in</h2>
      <p className="mt-1 text-sm">
        Set it up below with an authenticator app on your phone. Until you do, this is the only page of the dashboard that opens for you; everything else comes
        back as soon as it is on.
      </p>
    </div>
  );
}
