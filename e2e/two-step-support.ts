// Two-step sign-in over HTTP for the e2e specs: codes computed from the set-up's secret with the app's own TOTP code.
import { expect, type APIRequestContext } from "@playwright/test";

import { totpCode, totpCodeAtStep, totpStep } from "../lib/auth/totp";
import { BASE_URL } from "./support";

/** Set-up and enable in the context's own session (which stays open), with the person's password; answers the secret and the ten recovery codes. */
export async function turnOnTwoStep(ctx: APIRequestContext, password: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await ctx.post("/api/me/2fa/setup", { headers: { Origin: BASE_URL }, data: { password } });
  expect(setup.status(), await setup.text()).toBe(200);
  const { secret } = ((await setup.json()) as { data: { secret: string } }).data;
  const enabled = await ctx.post("/api/me/2fa/enable", { headers: { Origin: BASE_URL }, data: { password, code: totpCode(secret, Date.now()) } });
  expect(enabled.status(), await enabled.text()).toBe(200);
  return { secret, recoveryCodes: ((await enabled.json()) as { data: { recoveryCodes: string[] } }).data.recoveryCodes };
}

/** The code of the 30 s step after now: later than any code accepted so far this step, and inside the server's ±1 step window. */
export function nextStepCode(secret: string): string {
  return totpCodeAtStep(secret, totpStep(Date.now()) + 1);
}

/** Six digits that are none of the codes the server could accept around now. */
export function wrongCode(secret: string): string {
  const now = totpStep(Date.now());
  const near = new Set([-2, -1, 0, 1, 2].map((d) => totpCodeAtStep(secret, now + d)));
  let n = 123_456;
  while (near.has(String(n).padStart(6, "0"))) n = (n + 1) % 1_000_000;
  return String(n).padStart(6, "0");
}
