import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { API_SCOPES, PERMISSION_RULES, PERMISSIONS, roleMay, type Permission } from "@/lib/client/auth/permissions";
import { ROLES, type Role } from "@/lib/client/auth/roles";
import { ROUTE_TABLE } from "@/e2e/route-table";
import { ROOT } from "@/tests/support/paths";
import { sourceFiles } from "@/tests/support/source-files";

import { staffActor, systemActor, type ApiKeyActor } from "./actor";
import { authorize, can } from "./permissions";

// The permission table (docs/architecture.md "Actors"): each permission held by exactly the roles whose routes and
// pages allowed it before permissions had names (ADMINS, SENDERS, ANY_STAFF), the API-key scopes that grant it, and
// the refusals.

const ANY: Role[] = ["admin", "operator", "viewer"];
const SENDERS: Role[] = ["admin", "operator"];
const ADMINS: Role[] = ["admin"];

/** Who held each permission before it had a name: the role list its routes and pages named. */
const BEFORE: Record<Permission, Role[]> = {
  "requests.read": ANY,
  "requests.write": SENDERS,
  "payments.read": ANY,
  "payments.export": SENDERS,
  "payments.reverify": SENDERS,
  "payers.read": ANY,
  "payers.write": SENDERS,
  "campaigns.read": ANY,
  "campaigns.write": SENDERS,
  "plans.read": ANY,
  "plans.write": SENDERS,
  "exceptions.read": ANY,
  "exceptions.resolve": SENDERS,
  "reports.read": ANY,
  "events.read": ANY,
  "deliveries.read": ADMINS,
  "pay_pages.read": ANY,
  "pay_pages.manage": SENDERS,
  "pay_pages.submit": [],
  "webhooks.read": ADMINS,
  "webhooks.manage": ADMINS,
  "api_keys.manage": ADMINS,
  "audit.read": ADMINS,
  "staff.manage": ADMINS,
  "settings.manage": ADMINS,
  "account.own": ANY,
  "health.detail": ADMINS,
};

const person = (role: Role) => staffActor({ id: "p", email: "p@example.test", name: "P", role }, "203.0.113.1");
const key = (scopes: ApiKeyActor["scopes"]): ApiKeyActor => ({ kind: "api_key", id: "k", name: "books", scopes, ownerId: "p", ip: null });

describe("the permission table", () => {
  it.each(PERMISSIONS)("%s is held by the roles that held it before", (permission) => {
    expect(ROLES.filter((role) => can(person(role), permission))).toEqual(BEFORE[permission]);
    expect(ROLES.filter((role) => roleMay(role, permission))).toEqual(BEFORE[permission]);
  });

  it("is the closed list the table above names, no more", () => {
    expect([...PERMISSIONS].sort()).toEqual(Object.keys(BEFORE).sort());
  });

  it("lets an API key do only what its scopes grant, and never manage staff, settings or anyone's account", () => {
    const all = key(API_SCOPES);
    for (const permission of PERMISSIONS) expect(can(all, permission), permission).toBe(PERMISSION_RULES[permission].scope !== null);
    for (const permission of ["staff.manage", "settings.manage", "account.own", "audit.read"] as const) expect(can(all, permission)).toBe(false);
    expect(can(key(["requests:read"]), "requests.read")).toBe(true);
    expect(can(key(["requests:read"]), "requests.write")).toBe(false);
    expect(can(key([]), "requests.read")).toBe(false);
  });

  it("lets the system do what jobs do and nothing a person does for themselves; the public only submit a pay page", () => {
    const system = systemActor("plans");
    expect(can(system, "plans.write")).toBe(true);
    expect(can(system, "staff.manage")).toBe(false);
    expect(can(system, "account.own")).toBe(false);
    for (const permission of PERMISSIONS) expect(can({ kind: "public", ip: null }, permission), permission).toBe(permission === "pay_pages.submit");
  });

  it("refuses with withStaff's 403 and its sentence for a person, and says the missing scope for a key", () => {
    expect(() => authorize(person("viewer"), "campaigns.write")).toThrow(
      expect.objectContaining({ status: 403, code: "forbidden", message: "Your role (viewer) may not do this. Ask an admin if you need access." }),
    );
    expect(() => authorize(person("operator"), "staff.manage")).toThrow("Your role (operator) may not do this. Ask an admin if you need access.");
    expect(() => authorize(person("admin"), "staff.manage")).not.toThrow();
    expect(() => authorize(key(["plans:read"]), "plans.write")).toThrow("This API key (books) lacks the plans:write scope.");
    expect(() => authorize(key(API_SCOPES), "staff.manage")).toThrow(/An API key may not do this/);
  });

  it("admits to each route exactly the roles the end-to-end route table says may call it", () => {
    const mismatches: string[] = [];
    for (const route of ROUTE_TABLE) {
      if (!Array.isArray(route.allowed)) continue;
      const file = path.join(ROOT, "app", route.pattern, "route.ts");
      const text = readFileSync(file, "utf8");
      // The campaign actions share one handler maker, which names the permission.
      const named = (
        /\bcampaignAction\(/.test(text)
          ? /return withStaff(?:<[^>]*>)?\(\s*"([a-z_.]+)"/.exec(readFileSync(path.join(ROOT, "app/api/campaigns/[id]/campaign-action.ts"), "utf8"))
          : new RegExp(`export const ${route.method} = withStaff(?:<[^>]*>)?\\(\\s*"([a-z_.]+)"`).exec(text)
      )?.[1] as Permission | undefined;
      if (!named || !(named in PERMISSION_RULES)) {
        mismatches.push(`${route.method} ${route.pattern} names no permission`);
        continue;
      }
      const admitted = ROLES.filter((role) => roleMay(role, named));
      if (admitted.join() !== [...route.allowed].sort((a, b) => ROLES.indexOf(a) - ROLES.indexOf(b)).join())
        mismatches.push(`${route.method} ${route.pattern}: ${named} admits ${admitted.join(", ")}, the table ${route.allowed.join(", ")}`);
    }
    expect(mismatches).toEqual([]);
  });

  it("names no permission that nothing asks for: each is named by a route, a page, the navigation or a use case", () => {
    const texts = [...sourceFiles("app"), ...sourceFiles("components"), ...sourceFiles("lib")]
      .filter((f) => f !== path.join("lib", "client", "auth", "permissions.ts"))
      .map((f) => readFileSync(path.join(ROOT, f), "utf8"))
      .join("\n");
    expect(PERMISSIONS.filter((p) => !texts.includes(`"${p}"`))).toEqual([]);
  });
});
