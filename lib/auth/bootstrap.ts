import "server-only";

import type { AppConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { createAdminIfMissing, resetAdmin } from "@/lib/staff/repo";
import { writeAudit } from "@/lib/audit/write";

import { DEMO_ADMIN } from "./demo";

/**
 * ADMIN_EMAIL/ADMIN_PASSWORD create that admin if missing; an existing account (perhaps disabled
 * after a compromise) is left alone unless ADMIN_RESET=1 is set for this start. Sandbox mode alone
 * adds the demo admin, likewise only when missing.
 */
export async function bootstrapAdmins(db: Db, config: Pick<AppConfig, "admin" | "sandbox">, log: (line: string) => void): Promise<void> {
  const admin = config.admin;
  if (admin) {
    const outcome = await createAdminIfMissing(db, admin.email, admin.password);
    if (outcome === "created") {
      await writeAudit(db, { action: "staff.created", target: admin.email, detail: { via: "ADMIN_EMAIL", role: "admin" } });
      log(`Admin ${admin.email} created from ADMIN_EMAIL/ADMIN_PASSWORD.`);
    } else if (admin.reset) {
      await resetAdmin(db, admin.email, admin.password);
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
