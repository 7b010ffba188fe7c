import "server-only";

import type { AppConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { putMeta, readMeta } from "@/lib/db/meta";
import { createAdminIfMissing, resetAdmin } from "@/lib/auth/accounts";
import { writeAudit } from "@/lib/audit/write";

import { DEMO_ADMIN } from "./demo";
import { hashPassword, verifyPassword } from "./password";

/** app_meta key holding an argon2 hash of the password ADMIN_RESET last applied to that e-mail (never the password). */
const resetMarkerKey = (email: string) => `admin_reset:${email}`;

/** True when ADMIN_RESET already applied this very password to this account at an earlier start. */
async function alreadyReset(db: Db, email: string, password: string): Promise<boolean> {
  const marker = await readMeta(db, resetMarkerKey(email));
  return marker !== null && (await verifyPassword(marker, password));
}

async function rememberReset(db: Db, email: string, password: string): Promise<void> {
  await putMeta(db, resetMarkerKey(email), await hashPassword(password));
}

/**
 * ADMIN_EMAIL/ADMIN_PASSWORD create that admin if missing; an existing account (perhaps disabled
 * after a compromise) is left alone unless ADMIN_RESET=1 is set, and then reset once per password: ADMIN_RESET
 * left set with the same ADMIN_PASSWORD changes nothing at later starts (an admin disabled since stays disabled). Sandbox mode alone
 * adds the demo admin, likewise only when missing.
 */
export async function bootstrapAdmins(db: Db, config: Pick<AppConfig, "admin" | "sandbox">, log: (line: string) => void): Promise<void> {
  const admin = config.admin;
  if (admin) {
    const outcome = await createAdminIfMissing(db, admin.email, admin.password);
    if (outcome === "created") {
      // Made with this password: a reset with it is done already, so the next start with ADMIN_RESET=1 left set
      // does not undo a new password the owner chose meanwhile.
      if (admin.reset) await rememberReset(db, admin.email, admin.password);
      await writeAudit(db, { action: "staff.created", target: admin.email, detail: { via: "ADMIN_EMAIL", role: "admin" } });
      log(`Admin ${admin.email} created from ADMIN_EMAIL/ADMIN_PASSWORD.`);
    } else if (admin.reset && (await alreadyReset(db, admin.email, admin.password))) {
      log(
        `ADMIN_RESET=1 ignored: ${admin.email} was already reset with this ADMIN_PASSWORD at an earlier start, so nothing changed. Unset ADMIN_RESET (or set a new ADMIN_PASSWORD to reset again).`,
      );
    } else if (admin.reset) {
      await resetAdmin(db, admin.email, admin.password);
      await rememberReset(db, admin.email, admin.password);
      await writeAudit(db, { action: "staff.password_reset", target: admin.email, detail: { via: "ADMIN_RESET", role: "admin", disabled: false } });
      log(`Admin ${admin.email} reset from ADMIN_RESET=1: new password, admin role, enabled. Unset ADMIN_RESET for the next start.`);
    } else {
      log(`Admin ${admin.email} already exists; left as it is (set ADMIN_RESET=1 for one start to reset its password and re-enable it).`);
    }
  }
  if (config.sandbox) {
    const outcome = await createAdminIfMissing(db, DEMO_ADMIN.email, DEMO_ADMIN.password, DEMO_ADMIN.name);
    log(`Sandbox mode: demo admin ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}${outcome === "exists" ? " (existing account, left as it is)" : ""}`);
  }
}
