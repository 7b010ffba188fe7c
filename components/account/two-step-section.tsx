"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";

import { LocalTime } from "@/components/ui/local-time";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";

import { RecoveryCodes } from "./recovery-codes";
import { TwoStepConfirmForm, type TwoStepConfirmAction } from "./two-step-confirm-form";
import { TwoStepSetup } from "./two-step-setup";

export interface TwoStepStatus {
  enabled: boolean;
  enabledAt: string | null;
  recoveryCodesLeft: number;
}

const RENEW: TwoStepConfirmAction = {
  id: "renew",
  title: "New recovery codes",
  explain: "Ten new codes replace all the old ones, used or not.",
  url: "/api/me/2fa/recovery-codes",
  submit: "Get new codes",
  pending: "Making new codes…",
  failed: "New recovery codes could not be made. Try again.",
};

const DISABLE: TwoStepConfirmAction = {
  id: "disable",
  title: "Turn off two-step sign-in",
  url: "/api/me/2fa/disable",
  submit: "Turn off",
  pending: "Turning off…",
  failed: "Two-step sign-in could not be turned off. Try again.",
};

/** The account page's two-step sign-in: set it up, see the recovery codes once, or see it on, renew the recovery codes, or turn it off. */
export function TwoStepSection({ status, mustEnrol, required }: { status: TwoStepStatus; mustEnrol: boolean; required: boolean }) {
  const router = useRouter();
  // Codes just made, by enabling or by renewing: shown until the person says they have saved them.
  const [shown, setShown] = useState<{ codes: string[]; renewed: boolean } | null>(null);
  // Remembered from the first render: after enabling, the refreshed page no longer says the person had to.
  const [wasEnrolling] = useState(mustEnrol);

  if (shown) {
    return (
      <div className="space-y-4">
        <p className="flex items-center gap-2 text-sm text-slate-800">
          <Badge tone="success">On</Badge>
          <span>
            {shown.renewed
              ? "Here are your new recovery codes. The old ones no longer work."
              : "Two-step sign-in is on. From your next sign-in you will enter a code from your app after your password."}
          </span>
        </p>
        <RecoveryCodes codes={shown.codes} />
        <div className="flex flex-wrap items-center gap-3">
          {wasEnrolling ? (
            <Link href="/" className={buttonClasses("primary")}>
              I have saved them — continue to the overview
            </Link>
          ) : (
            <Button onClick={() => setShown(null)}>I have saved them</Button>
          )}
        </div>
      </div>
    );
  }

  if (status.enabled) {
    const left = status.recoveryCodesLeft;
    return (
      <div className="space-y-4">
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-800" data-testid="two-step-status">
          <Badge tone="success">On</Badge>
          <span>
            Since <LocalTime iso={status.enabledAt} />. {left} of 10 recovery code{left === 1 ? "" : "s"} left.
          </span>
        </p>
        {left <= 2 ? <p className="text-sm text-amber-900">You are running out of recovery codes. Get new ones below.</p> : null}
        <TwoStepConfirmForm<{ recoveryCodes: string[] }> action={RENEW} onDone={(data) => setShown({ codes: data.recoveryCodes, renewed: true })} />
        {required ? (
          <p className="text-sm text-slate-700">
            Your team requires two-step sign-in, so it cannot be turned off. Lost your phone? Sign in with a recovery code, or ask an admin to reset it for you.
          </p>
        ) : (
          <TwoStepConfirmForm action={DISABLE} />
        )}
      </div>
    );
  }

  return (
    <div className="space-y-3">
      <p className="flex items-center gap-2 text-sm text-slate-800" data-testid="two-step-status">
        <Badge tone="neutral">Off</Badge> Only your password protects this account.
      </p>
      <TwoStepSetup
        onEnabled={(recoveryCodes) => {
          setShown({ codes: recoveryCodes, renewed: false });
          // The nav and the rest of the page follow (a person who had to enrol gets everything back).
          router.refresh();
        }}
      />
    </div>
  );
}
