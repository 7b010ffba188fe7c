/** Shown to a person signed in with a password an admin chose, until they have picked their own. */
export function ChoosePasswordBanner() {
  return (
    <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="choose-password-banner">
      <h2 className="font-semibold">Choose your own password</h2>
      <p className="mt-1 text-sm">
        An admin set the password you signed in with. Change it below: type that password as the current one, then one only you know. Until you do, this is the
        only page of the dashboard that opens for you.
      </p>
    </div>
  );
}
