import "server-only";

import type { AppConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { upsertAdmin } from "@/lib/staff/repo";
import { writeAudit } from "@/lib/audit";

import { DEMO_ADMIN } from "./demo";

/** ADMIN_EMAIL/ADMIN_PASSWORD create or reset that admin; sandbox mode alone adds the demo admin. */
export async function bootstrapAdmins(db: Db, config: Pick<AppConfig, "admin" | "sandbox">, log: (line: string) => void): Promise<void> {
  if (config.admin) {
    const outcome = await upsertAdmin(db, config.admin.email, config.admin.password);
    await writeAudit(db, { action: outcome === "created" ? "staff.created" : "staff.password_reset", target: config.admin.email, detail: { via: "ADMIN_EMAIL" } });
    log(`Admin ${config.admin.email} ${outcome === "created" ? "created" : "password reset"} from ADMIN_EMAIL/ADMIN_PASSWORD.`);
  }
  if (config.sandbox) {
    await upsertAdmin(db, DEMO_ADMIN.email, DEMO_ADMIN.password, DEMO_ADMIN.name);
    log(`Sandbox mode: demo admin ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`);
  }
}
