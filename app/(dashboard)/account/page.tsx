import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import type { ReactNode } from "react";

import { ChoosePasswordBanner } from "@/components/account/choose-password-banner";
import { EnrolBanner } from "@/components/account/enrol-banner";
import { PasswordForm } from "@/components/account/password-form";
import { SessionsSection } from "@/components/account/sessions-section";
import { TwoStepSection } from "@/components/account/two-step-section";
import { PreferencesForm } from "@/components/notifications/preferences-form";
import { Card } from "@/components/ui/card";
import { ENROL_PATH, requirePageStaff } from "@/lib/auth/page-guard";
import { listSessions } from "@/lib/auth/sessions";
import { recoveryCodesLeft } from "@/lib/auth/two-step";
import { getDb } from "@/lib/db";
import { keys } from "@/lib/client/query/options";
import { getServerQueryClient } from "@/lib/query/server-client";
import { getSettings } from "@/lib/settings/repo";
import { readPreferences } from "@/lib/notifications/preferences";
import { findStaffById } from "@/lib/auth/accounts";

export const metadata = { title: "Your account" };

function Section({ id, title, intro, children }: { id: string; title: string; intro?: string; children: ReactNode }) {
  return (
    <Card as="section" aria-labelledby={id} className="space-y-4 p-4">
      <div>
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {intro ? <p className="mt-1 text-sm text-slate-600">{intro}</p> : null}
      </div>
      {children}
    </Card>
  );
}

export default async function AccountPage() {
  // The one page a person who must still set up two-step sign-in may open (lib/auth/page-guard.ts).
  const me = await requirePageStaff("account.own", ENROL_PATH);
  const db = await getDb();
  const [row, settings] = await Promise.all([findStaffById(db, me.id), getSettings(db)]);
  const enabled = row !== null && row.totpSecret !== null;
  const status = {
    enabled,
    enabledAt: row?.totpEnabledAt?.toISOString() ?? null,
    recoveryCodesLeft: enabled ? await recoveryCodesLeft(db, me.id) : 0,
  };
  const client = getServerQueryClient();
  if (!me.mustEnrol && !me.mustChangePassword) {
    const items = await listSessions(db, me.id, me.sessionId);
    client.setQueryData(keys.sessions, { items, page: 1, pageSize: items.length, total: items.length });
  }
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Your account</h1>
        <p className="mt-1 text-sm text-slate-600">
          {me.name} · <span className="whitespace-nowrap">{me.email}</span> · {me.role}
        </p>
      </div>
      {me.mustChangePassword ? <ChoosePasswordBanner /> : null}
      {me.mustEnrol ? <EnrolBanner /> : null}
      {me.mustChangePassword ? (
        <Section id="password" title="Password" intro="Pick one only you know; the dashboard opens as soon as it is changed.">
          <PasswordForm firstPassword />
        </Section>
      ) : null}
      <Section id="two-step" title="Two-step sign-in" intro="A code from an app on your phone after your password, so a stolen password alone does not get in.">
        <TwoStepSection status={status} mustEnrol={me.mustEnrol} required={settings.require2fa} />
      </Section>
      {me.mustChangePassword ? null : (
        <Section id="password" title="Password" intro="Changing it signs out every other session of yours; this one stays signed in.">
          <PasswordForm />
        </Section>
      )}
      {me.mustEnrol || me.mustChangePassword ? null : (
        <Section
          id="notifications"
          title="Notifications"
          intro="What you are told, and how: in the dashboard (the bell), by e-mail at once, or in the daily digest at 08:00."
        >
          <PreferencesForm initial={await readPreferences(db, me.id, me.role)} />
        </Section>
      )}
      {me.mustEnrol || me.mustChangePassword ? null : (
        <Section id="sessions" title="Where you are signed in" intro="Sign out a session you do not recognise, or every session but this one.">
          <HydrationBoundary state={dehydrate(client)}>
            <SessionsSection />
          </HydrationBoundary>
        </Section>
      )}
    </div>
  );
}
