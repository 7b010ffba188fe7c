import Link from "next/link";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";

import { signOutAction } from "@/app/sign-out-action";
import { LiveUpdates } from "@/components/live/live-updates";
import { MainNav } from "@/components/nav/main-nav";
import { NotificationBell } from "@/components/notifications/bell";
import { Providers } from "@/components/providers";
import { Button } from "@/components/ui/button";
import { BAD_SIGNATURE_BANNER_MIN, BadSignatureBanner } from "@/components/webhooks/bad-signature-banner";
import { staffActor } from "@/lib/actors/actor";
import { can } from "@/lib/actors/permissions";
import { currentStaff } from "@/lib/auth/session";
import { PAGE_HEADER } from "@/lib/http/page-header";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { recentBadSignatures } from "@/lib/webhooks/log-queries";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const staff = await currentStaff();
  // The page asked for comes back through the sign-in page's one redirect check (lib/http/safe-redirect.ts).
  if (!staff) redirect(`/sign-in?callbackUrl=${encodeURIComponent((await headers()).get(PAGE_HEADER) ?? "/")}`);
  // A failed count must not take every page down with it; the delivery log still shows the rows.
  const noBadSignatures = { total: 0, sources: [] };
  const badSignatures = can(staffActor(staff), "deliveries.read") ? await recentBadSignatures(await getDb()).catch(() => noBadSignatures) : noBadSignatures;
  return (
    <Providers timeZone={getConfig().timeZone}>
      <div className="min-h-screen">
        {/* The first thing a keyboard reaches: past the header and its links to the page itself. */}
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-brand-700 focus:shadow focus:ring-2 focus:ring-brand-500"
        >
          Skip to main content
        </a>
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-3 px-4 py-3">
            <Link href="/" className="mr-auto flex items-center gap-2 font-semibold text-slate-900 md:mr-0">
              {/* eslint-disable-next-line @next/next/no-img-element -- a 24 px static SVG needs no optimisation */}
              <img src="/logo.svg" alt="" width={24} height={24} />
              Fundboard
            </Link>
            {/* /api/live stays closed until two-step sign-in is set up. Beside the menu button on a phone, after the account on wide screens. */}
            {staff.mustEnrol ? null : (
              <div className="flex items-center gap-2 md:order-2">
                <NotificationBell />
                <LiveUpdates />
              </div>
            )}
            <MainNav
              role={staff.role}
              mustEnrol={staff.mustEnrol}
              account={
                <>
                  {/* Name over role on wide screens, so the header's top line stays one line high. */}
                  <span className="text-slate-700 md:flex md:flex-col md:text-right md:leading-tight" data-testid="signed-in-as">
                    <span>{staff.name}</span> <span className="text-slate-500 md:text-xs">({staff.role})</span>
                  </span>
                  <form action={signOutAction}>
                    <Button type="submit" variant="quiet" className="whitespace-nowrap">
                      Sign out
                    </Button>
                  </form>
                </>
              }
            />
          </div>
        </header>
        {badSignatures.total >= BAD_SIGNATURE_BANNER_MIN ? <BadSignatureBanner summary={badSignatures} /> : null}
        {/* tabIndex -1: the skip link moves focus here, so the next Tab starts inside the page. */}
        <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-6 focus:outline-none">
          {children}
        </main>
      </div>
    </Providers>
  );
}
