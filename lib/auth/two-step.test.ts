import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { recoveryCodes, staff } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { normaliseRecoveryCode, RECOVERY_CODE_COUNT } from "./recovery-codes";
import { openSecret } from "./secret-box";
import { TOTP_PERIOD_S, TOTP_WINDOW_STEPS, totpCode, totpCodeAtStep, totpStep } from "./totp";
import { beginTwoStepSetup, checkSecondStep, enableTwoStep, recoveryCodesLeft, removeTwoStep, replaceRecoveryCodes, TwoStepUnreadable } from "./two-step";

const AUTH_SECRET = "two-step-test-auth-secret-5c1e9a7b3d2f4e6a8b0c";
/** A fixed clock: 10 s into a 30 s step, so the step's neighbours are a drift away on either side. */
const NOW = Date.UTC(2030, 0, 15, 9, 30, 10);
const STEP = totpStep(NOW);
const PERIOD_MS = TOTP_PERIOD_S * 1000;
/** 10 s into `step`. */
const during = (step: number): number => step * PERIOD_MS + 10_000;
const RECOVERY_FORMAT = /^[23456789abcdefghijkmnpqrstuvwxyz]{5}-[23456789abcdefghijkmnpqrstuvwxyz]{5}$/;

/** Six digits that are not the code of any step the server would accept around `step`. */
function wrongCode(secret: string, step: number): string {
  const accepted = new Set<string>();
  for (let s = step - TOTP_WINDOW_STEPS; s <= step + TOTP_WINDOW_STEPS; s++) accepted.add(totpCodeAtStep(secret, s));
  for (let s = step + 5; ; s++) {
    const code = totpCodeAtStep(secret, s);
    if (!accepted.has(code)) return code;
  }
}

describe.each(dbTargets())("two-step sign-in on $name", (target) => {
  const database = useTestDatabase(target);
  let people = 0;

  async function person(): Promise<{ id: string; email: string }> {
    people += 1;
    const email = `p${people}@two-step.test`;
    const [row] = await database.db.insert(staff).values({ email, name: email, role: "viewer", passwordHash: "x" }).returning({ id: staff.id });
    if (!row) throw new Error("insert returned nothing");
    return { id: row.id, email };
  }

  async function staffRow(id: string) {
    const [row] = await database.db.select().from(staff).where(eq(staff.id, id));
    if (!row) throw new Error(`no staff row ${id}`);
    return row;
  }

  const codeRows = (id: string) => database.db.select().from(recoveryCodes).where(eq(recoveryCodes.staffId, id));

  /** Set up and turned on at NOW with the code of STEP; answers the secret and the recovery codes. */
  async function enrolled(): Promise<{ id: string; email: string; secret: string; codes: string[] }> {
    const who = await person();
    const setup = await beginTwoStepSetup(database.db, who, AUTH_SECRET);
    if (!setup) throw new Error("set-up refused");
    const outcome = await enableTwoStep(database.db, who.id, totpCode(setup.secret, NOW), AUTH_SECRET, NOW);
    if (!outcome.ok) throw new Error(`enable refused: ${outcome.reason}`);
    return { ...who, secret: setup.secret, codes: outcome.recoveryCodes };
  }

  const check = async (id: string, code: string, at: number) => checkSecondStep(database.db, await staffRow(id), code, AUTH_SECRET, at);

  it("set-up answers a scannable otpauth URL and an SVG QR code, and stores the secret sealed, pending", async () => {
    const who = await person();
    const setup = await beginTwoStepSetup(database.db, who, AUTH_SECRET);
    if (!setup) throw new Error("set-up refused");
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(setup.otpauthUrl);
    expect(url.protocol).toBe("otpauth:");
    expect(url.host).toBe("totp");
    expect(decodeURIComponent(url.pathname)).toBe(`/Fundboard:${who.email}`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ secret: setup.secret, issuer: "Fundboard", algorithm: "SHA1", digits: "6", period: "30" });
    expect(setup.qrSvg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(setup.qrSvg).toContain("<path");

    const row = await staffRow(who.id);
    expect(row.totpSecret).toBeNull();
    expect(row.totpEnabledAt).toBeNull();
    expect(row.totpPendingSecret).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    // Nowhere in the row, in any case: only AUTH_SECRET opens it.
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(setup.secret);
    expect(stored.toLowerCase()).not.toContain(setup.secret.toLowerCase());
    expect(openSecret(row.totpPendingSecret ?? "", AUTH_SECRET)).toBe(setup.secret);
    expect(() => openSecret(row.totpPendingSecret ?? "", "another-auth-secret-entirely-000000")).toThrow();
    // Nothing is on yet: a code from the app is not a second step.
    expect(await check(who.id, totpCode(setup.secret, NOW), NOW)).toBeNull();
  });

  it("enable without a set-up, or with a wrong code, turns nothing on", async () => {
    const who = await person();
    expect(await enableTwoStep(database.db, who.id, "123456", AUTH_SECRET, NOW)).toEqual({ ok: false, reason: "no_setup" });
    const setup = await beginTwoStepSetup(database.db, who, AUTH_SECRET);
    if (!setup) throw new Error("set-up refused");
    expect(await enableTwoStep(database.db, who.id, wrongCode(setup.secret, STEP), AUTH_SECRET, NOW)).toEqual({ ok: false, reason: "wrong_code" });
    // The right code of a step outside the drift window is wrong too.
    expect(await enableTwoStep(database.db, who.id, totpCodeAtStep(setup.secret, STEP - 3), AUTH_SECRET, NOW)).toMatchObject({ ok: false });
    const row = await staffRow(who.id);
    expect(row.totpSecret).toBeNull();
    expect(row.totpEnabledAt).toBeNull();
    expect(row.totpLastStep).toBeNull();
    expect(row.totpPendingSecret).not.toBeNull();
    expect(await codeRows(who.id)).toEqual([]);
    expect(await recoveryCodesLeft(database.db, who.id)).toBe(0);
  });

  it("a second set-up replaces the first: the first secret's code no longer turns it on", async () => {
    const who = await person();
    const first = await beginTwoStepSetup(database.db, who, AUTH_SECRET);
    const second = await beginTwoStepSetup(database.db, who, AUTH_SECRET);
    if (!first || !second) throw new Error("set-up refused");
    expect(second.secret).not.toBe(first.secret);
    const firstCode = totpCode(first.secret, NOW);
    if (firstCode !== totpCode(second.secret, NOW)) {
      expect(await enableTwoStep(database.db, who.id, firstCode, AUTH_SECRET, NOW)).toEqual({ ok: false, reason: "wrong_code" });
    }
    expect(await enableTwoStep(database.db, who.id, totpCode(second.secret, NOW), AUTH_SECRET, NOW)).toMatchObject({ ok: true });
    expect(openSecret((await staffRow(who.id)).totpSecret ?? "", AUTH_SECRET)).toBe(second.secret);
  });

  it("enable with the right code turns it on and answers 10 recovery codes, stored only as keyed hashes", async () => {
    const who = await person();
    const setup = await beginTwoStepSetup(database.db, who, AUTH_SECRET);
    if (!setup) throw new Error("set-up refused");
    const outcome = await enableTwoStep(database.db, who.id, totpCode(setup.secret, NOW), AUTH_SECRET, NOW);
    if (!outcome.ok) throw new Error(`enable refused: ${outcome.reason}`);
    expect(outcome.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(outcome.recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of outcome.recoveryCodes) expect(code).toMatch(RECOVERY_FORMAT);

    const row = await staffRow(who.id);
    expect(row.totpPendingSecret).toBeNull();
    expect(row.totpSecret).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(setup.secret);
    expect(openSecret(row.totpSecret ?? "", AUTH_SECRET)).toBe(setup.secret);
    expect(row.totpEnabledAt?.getTime()).toBe(NOW);
    expect(row.totpLastStep).toBe(STEP);

    const stored = await codeRows(who.id);
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    const table = JSON.stringify(stored);
    for (const code of outcome.recoveryCodes) {
      expect(table).not.toContain(code);
      expect(table).not.toContain(normaliseRecoveryCode(code) ?? code);
    }
    for (const r of stored) {
      expect(r.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(r.usedAt).toBeNull();
    }
    expect(await recoveryCodesLeft(database.db, who.id)).toBe(RECOVERY_CODE_COUNT);
    // A second enable finds it on already.
    expect(await enableTwoStep(database.db, who.id, totpCodeAtStep(setup.secret, STEP + 1), AUTH_SECRET, during(STEP + 1))).toEqual({
      ok: false,
      reason: "already_on",
    });
  });

  it("the code that turned it on cannot sign in, nor the one of the step before it", async () => {
    const p = await enrolled();
    expect(await check(p.id, totpCode(p.secret, NOW), NOW)).toBeNull();
    expect(await check(p.id, totpCode(p.secret, NOW), NOW + 15_000)).toBeNull();
    expect(await check(p.id, totpCodeAtStep(p.secret, STEP - 1), NOW)).toBeNull();
    expect((await staffRow(p.id)).totpLastStep).toBe(STEP);
  });

  it("a later step's code is accepted once; the same code again is refused (replay)", async () => {
    const p = await enrolled();
    const code = totpCodeAtStep(p.secret, STEP + 1);
    expect(await check(p.id, code, during(STEP + 1))).toBe("totp");
    expect((await staffRow(p.id)).totpLastStep).toBe(STEP + 1);
    expect(await check(p.id, code, during(STEP + 1))).toBeNull();
    // Still inside its drift window a step later: still refused.
    expect(await check(p.id, code, during(STEP + 2))).toBeNull();
    // Spaced as the apps show it, a fresh step's code is fine.
    const spaced = totpCodeAtStep(p.secret, STEP + 2).replace(/^(\d{3})/, "$1 ");
    expect(await check(p.id, spaced, during(STEP + 2))).toBe("totp");
  });

  it("an earlier step's code is refused after a later one, though it is in the window and never used", async () => {
    const p = await enrolled();
    const at = during(STEP + 5);
    // The phone runs a step ahead: its code for STEP + 6 is accepted at STEP + 5.
    expect(await check(p.id, totpCodeAtStep(p.secret, STEP + 6), at)).toBe("totp");
    const earlier = totpCodeAtStep(p.secret, STEP + 5);
    if (earlier !== totpCodeAtStep(p.secret, STEP + 6)) expect(await check(p.id, earlier, at)).toBeNull();
    expect(await check(p.id, totpCodeAtStep(p.secret, STEP + 4), at)).toBeNull();
    expect((await staffRow(p.id)).totpLastStep).toBe(STEP + 6);
  });

  it("refuses a wrong code, a code outside the window, and a malformed one, without moving the last step", async () => {
    const p = await enrolled();
    const at = during(STEP + 10);
    expect(await check(p.id, wrongCode(p.secret, STEP + 10), at)).toBeNull();
    expect(await check(p.id, totpCodeAtStep(p.secret, STEP + 12), at)).toBeNull();
    for (const junk of ["", "12345", "1234567", "abcdef", "' or 1=1 --"]) expect(await check(p.id, junk, at)).toBeNull();
    expect((await staffRow(p.id)).totpLastStep).toBe(STEP);
    expect(await recoveryCodesLeft(database.db, p.id)).toBe(RECOVERY_CODE_COUNT);
  });

  it("of concurrent checks of one code exactly one wins", async () => {
    const p = await enrolled();
    const row = await staffRow(p.id);
    const code = totpCodeAtStep(p.secret, STEP + 3);
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => checkSecondStep(database.db, row, code, AUTH_SECRET, during(STEP + 3))));
    expect(outcomes.filter((o) => o === "totp")).toHaveLength(1);
    expect(outcomes.filter((o) => o === null)).toHaveLength(5);
  });

  it("of concurrent enables with the right code exactly one turns it on, leaving one set of recovery codes", async () => {
    const who = await person();
    const setup = await beginTwoStepSetup(database.db, who, AUTH_SECRET);
    if (!setup) throw new Error("set-up refused");
    const code = totpCode(setup.secret, NOW);
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => enableTwoStep(database.db, who.id, code, AUTH_SECRET, NOW)));
    const won = outcomes.filter((o) => o.ok);
    expect(won).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok && o.reason === "already_on")).toHaveLength(3);
    expect(await codeRows(who.id)).toHaveLength(RECOVERY_CODE_COUNT);
    const winner = won[0];
    if (!winner?.ok) throw new Error("no winner");
    expect(await check(who.id, winner.recoveryCodes[0] ?? "", NOW)).toBe("recovery_code");
  });

  it("a recovery code works once, however it is typed, and the count of those left goes down", async () => {
    const p = await enrolled();
    const [first, second, third, fourth] = p.codes;
    if (!first || !second || !third || !fourth) throw new Error("too few codes");
    expect(await recoveryCodesLeft(database.db, p.id)).toBe(10);
    expect(await check(p.id, first, NOW)).toBe("recovery_code");
    expect(await recoveryCodesLeft(database.db, p.id)).toBe(9);
    expect(await check(p.id, first, NOW)).toBeNull();
    expect(await check(p.id, first.toUpperCase(), NOW + 60_000)).toBeNull();
    expect(await recoveryCodesLeft(database.db, p.id)).toBe(9);
    const [head, tail] = [second.slice(0, 5), second.slice(6)];
    expect(await check(p.id, ` ${head.toUpperCase()} ${tail} `, NOW)).toBe("recovery_code");
    expect(await check(p.id, `${head}${tail}`, NOW)).toBeNull();
    expect(await check(p.id, third.replace("-", "").toUpperCase(), NOW)).toBe("recovery_code");
    expect(await check(p.id, third, NOW)).toBeNull();
    expect(await check(p.id, `${fourth.slice(0, 2)}-${fourth.slice(2, 7)} - ${fourth.slice(7)}`, NOW)).toBe("recovery_code");
    expect(await recoveryCodesLeft(database.db, p.id)).toBe(6);
    const used = (await codeRows(p.id)).filter((r) => r.usedAt !== null);
    expect(used).toHaveLength(4);
    for (const r of used) expect(r.usedAt?.getTime()).toBe(NOW);
    // A recovery code does not move the authenticator's last step.
    expect((await staffRow(p.id)).totpLastStep).toBe(STEP);
  });

  it("one person's recovery code is not another's, and of concurrent uses of one code exactly one wins", async () => {
    const a = await enrolled();
    const b = await enrolled();
    const code = b.codes[0] ?? "";
    expect(await check(a.id, code, NOW)).toBeNull();
    const row = await staffRow(b.id);
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => checkSecondStep(database.db, row, code, AUTH_SECRET, NOW)));
    expect(outcomes.filter((o) => o === "recovery_code")).toHaveLength(1);
    expect(await recoveryCodesLeft(database.db, b.id)).toBe(9);
    expect(await recoveryCodesLeft(database.db, a.id)).toBe(10);
  });

  it("removeTwoStep clears the secret, the last step and the recovery codes; a new set-up starts afresh", async () => {
    const p = await enrolled();
    expect(await check(p.id, p.codes[0] ?? "", NOW)).toBe("recovery_code");
    expect(await removeTwoStep(database.db, p.id)).toBe(true);
    const row = await staffRow(p.id);
    expect(row).toMatchObject({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null });
    expect(await codeRows(p.id)).toEqual([]);
    expect(await recoveryCodesLeft(database.db, p.id)).toBe(0);
    expect(await check(p.id, totpCodeAtStep(p.secret, STEP + 1), during(STEP + 1))).toBeNull();
    expect(await check(p.id, p.codes[1] ?? "", NOW)).toBeNull();
    expect(await removeTwoStep(database.db, p.id)).toBe(false);

    const again = await beginTwoStepSetup(database.db, p, AUTH_SECRET);
    if (!again) throw new Error("set-up refused after removal");
    const outcome = await enableTwoStep(database.db, p.id, totpCode(again.secret, NOW), AUTH_SECRET, NOW);
    if (!outcome.ok) throw new Error(`enable refused: ${outcome.reason}`);
    expect(await recoveryCodesLeft(database.db, p.id)).toBe(RECOVERY_CODE_COUNT);
    // The old codes belong to nothing now.
    expect(await check(p.id, p.codes[2] ?? "", NOW)).toBeNull();
    expect(await check(p.id, outcome.recoveryCodes[0] ?? "", NOW)).toBe("recovery_code");
  });

  it("replaceRecoveryCodes gives ten new codes for all the old ones, used or not, and leaves the app's secret alone", async () => {
    const p = await enrolled();
    expect(await check(p.id, p.codes[0] ?? "", NOW)).toBe("recovery_code");
    expect(await recoveryCodesLeft(database.db, p.id)).toBe(RECOVERY_CODE_COUNT - 1);
    const before = await staffRow(p.id);

    const renewed = await replaceRecoveryCodes(database.db, p.id, before.totpSecret, AUTH_SECRET);
    if (!renewed) throw new Error("renewal refused");
    expect(renewed).toHaveLength(RECOVERY_CODE_COUNT);
    expect(renewed.every((c) => RECOVERY_FORMAT.test(c))).toBe(true);
    expect(renewed.filter((c) => p.codes.includes(c))).toEqual([]);
    expect(await codeRows(p.id)).toHaveLength(RECOVERY_CODE_COUNT);
    expect(await recoveryCodesLeft(database.db, p.id)).toBe(RECOVERY_CODE_COUNT);
    expect(await staffRow(p.id)).toMatchObject({ totpSecret: before.totpSecret, totpLastStep: before.totpLastStep });

    expect(await check(p.id, p.codes[1] ?? "", NOW), "an old, unused code").toBeNull();
    expect(await check(p.id, renewed[0] ?? "", NOW)).toBe("recovery_code");
    expect(await check(p.id, totpCodeAtStep(p.secret, STEP + 1), during(STEP + 1)), "the app still works").toBe("totp");
  });

  it("replaceRecoveryCodes answers null and changes nothing once the checked secret is gone or replaced", async () => {
    const who = await person();
    expect(await replaceRecoveryCodes(database.db, who.id, null, AUTH_SECRET)).toBeNull();
    expect(await codeRows(who.id)).toEqual([]);

    const p = await enrolled();
    const checked = (await staffRow(p.id)).totpSecret;
    await removeTwoStep(database.db, p.id);
    expect(await replaceRecoveryCodes(database.db, p.id, checked, AUTH_SECRET), "reset meanwhile").toBeNull();
    expect(await codeRows(p.id)).toEqual([]);

    // Reset and set up again meanwhile: the codes the new enable showed stay the ones that work.
    const again = await beginTwoStepSetup(database.db, p, AUTH_SECRET);
    if (!again) throw new Error("set-up refused");
    const outcome = await enableTwoStep(database.db, p.id, totpCode(again.secret, NOW), AUTH_SECRET, NOW);
    if (!outcome.ok) throw new Error(`enable refused: ${outcome.reason}`);
    expect(await replaceRecoveryCodes(database.db, p.id, checked, AUTH_SECRET), "an older secret").toBeNull();
    expect(await check(p.id, outcome.recoveryCodes[0] ?? "", NOW)).toBe("recovery_code");
  });

  it("set-up while two-step sign-in is on answers null and leaves the secret alone", async () => {
    const p = await enrolled();
    const before = await staffRow(p.id);
    expect(await beginTwoStepSetup(database.db, p, AUTH_SECRET)).toBeNull();
    const after = await staffRow(p.id);
    expect(after.totpSecret).toBe(before.totpSecret);
    expect(after.totpPendingSecret).toBeNull();
    expect(await check(p.id, totpCodeAtStep(p.secret, STEP + 1), during(STEP + 1))).toBe("totp");
  });

  it("under another AUTH_SECRET the sealed secret does not open: a typed error, not a wrong code", async () => {
    const p = await enrolled();
    const row = await staffRow(p.id);
    await expect(
      checkSecondStep(database.db, row, totpCodeAtStep(p.secret, STEP + 1), "another-auth-secret-0123456789abcdef", during(STEP + 1)),
    ).rejects.toBeInstanceOf(TwoStepUnreadable);
    // Nothing was used up: under the right secret the same code still works.
    expect(await check(p.id, totpCodeAtStep(p.secret, STEP + 1), during(STEP + 1))).toBe("totp");
  });
});
