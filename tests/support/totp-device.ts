// An authenticator app for tests against a running server (real clock): it hands out each code once, every
// one of a later 30 s step than the one before, as the server requires (a step is accepted once, and never
// one before the last accepted). Relative imports: e2e may load this too.
import { TOTP_PERIOD_S, TOTP_WINDOW_STEPS, totpCodeAtStep, totpStep } from "../../lib/auth/totp";

import { sleep } from "./wait-for";

const PERIOD_MS = TOTP_PERIOD_S * 1000;

export class TotpDevice {
  private lastStep: number | null = null;

  /** `secret`: the base32 secret of POST /api/me/2fa/setup (what the QR code holds). */
  constructor(readonly secret: string) {}

  /**
   * The code of the earliest step later than the last one handed out that the server accepts now and a
   * step boundary from now, so a request in flight across one is still accepted: the current step or the
   * next. When the next usable step is further ahead, waits for the clock to reach the step before it.
   */
  async nextCode(): Promise<string> {
    for (;;) {
      const now = totpStep(Date.now());
      const step = Math.max(now, this.lastStep === null ? now : this.lastStep + 1);
      if (step <= now + TOTP_WINDOW_STEPS) {
        this.lastStep = step;
        return totpCodeAtStep(this.secret, step);
      }
      // Waiting for the clock itself: the step before `step` begins at (step - 1) * period.
      await sleep(Math.max(10, (step - TOTP_WINDOW_STEPS) * PERIOD_MS - Date.now() + 20));
    }
  }

  /** A code the server will not take now: none of the steps it accepts (the current one and its neighbours). */
  wrongCode(): string {
    const now = totpStep(Date.now());
    const accepted = new Set<string>();
    for (let s = now - TOTP_WINDOW_STEPS - 1; s <= now + TOTP_WINDOW_STEPS + 1; s++) accepted.add(totpCodeAtStep(this.secret, s));
    for (let candidate = 0; ; candidate++) {
      const code = String((Number(totpCodeAtStep(this.secret, now + 100 + candidate)) + 1) % 1_000_000).padStart(6, "0");
      if (!accepted.has(code)) return code;
    }
  }
}
