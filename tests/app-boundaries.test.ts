// Route handlers parse, call and answer (docs/architecture.md "Actors"): every change goes through a use case in lib/
// that takes the actor, authorizes it, and writes the audit row and the event. This fails when a file under app/
// writes an audit row or an event itself, or decides a role: names a role list, or compares or looks up a role.
import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { ROOT } from "@/tests/support/paths";
import { sourceFiles } from "@/tests/support/source-files";

const RULES: { why: string; pattern: RegExp }[] = [
  { why: "imports the audit writer or the event appender", pattern: /["']@\/lib\/(audit\/write|events\/append)["']/ },
  { why: "writes an audit row or an event", pattern: /\b(writeAudit|writeRefusedSignIn|appendEvent)\s*\(|\.insert\(\s*(auditLog|events)\s*\)/ },
  { why: "names a role list (a page or route names a permission instead)", pattern: /\b(ADMINS|SENDERS|ANY_STAFF|PERMISSION_RULES|roleMay)\b/ },
  { why: "compares a role", pattern: /\brole\s*[!=]==?|[!=]==?\s*[\w$.?]*\brole\b/ },
  { why: "compares with a role's name", pattern: /["'`](admin|operator|viewer)["'`]\s*[!=]==?|[!=]==?\s*["'`](admin|operator|viewer)["'`]/ },
  { why: "looks a role up in a list", pattern: /\.(includes|indexOf|has|some)\(\s*[\w$.?]*\brole\s*[,)]/ },
  { why: "switches on a role", pattern: /\bswitch\s*\(\s*[\w$.?]*\brole\s*\)/ },
];

/** The text with its comment lines left out: a comment may say "role", code may not decide one. */
function code(text: string): string {
  return text
    .split("\n")
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join("\n");
}

/** Each rule `text` breaks, as "<why>: <the matching text>". */
function breaches(text: string): string[] {
  const body = code(text);
  return RULES.flatMap(({ why, pattern }) => {
    const m = pattern.exec(body);
    return m ? [`${why}: ${m[0]}`] : [];
  });
}

describe("app/ parses, calls and answers", () => {
  it("no file under app/ writes an audit row or an event, or decides a role", () => {
    const found = sourceFiles("app").flatMap((file) => breaches(readFileSync(path.join(ROOT, file), "utf8")).map((b) => `${file} ${b}`));
    expect(found).toEqual([]);
  });

  it("finds each kind of breach (the check itself)", () => {
    const cases = [
      'import { writeAudit } from "@/lib/audit/write";',
      'import { appendEvent } from "@/lib/events/append";',
      'await writeAudit(db, { action: "staff.created" });',
      'await appendEvent(tx, "payer.updated", {});',
      'import { ADMINS } from "@/lib/client/auth/roles";',
      "export const GET = withStaff(SENDERS, handler);",
      'const extra = staff?.role === "admin" ? 1 : 0;',
      'const loses = role !== "admin";',
      "if (staff.role !== other.role) return;",
      "canSend={SENDERS.includes(staff.role)}",
      "canSend={allowed.includes(staff.role)}",
      'if ("viewer" === kind) return;',
      "switch (staff.role) {}",
    ];
    for (const text of cases) expect(breaches(text), text).not.toEqual([]);
  });

  it("lets a page or route name a permission, pass a role on, and say one in a comment", () => {
    const clean = [
      'export const GET = withStaff("staff.manage", handler);',
      'canSend={can(staffActor(staff), "campaigns.write")}',
      "const detail = await readPayerDetail(db, key, staff.role);",
      "<MainNav role={staff.role} />",
      "return { role: row.role };",
      '// a viewer\'s role === "viewer": masked',
      'import { AUDIT_ACTIONS } from "@/lib/audit/actions";',
    ];
    for (const text of clean) expect(breaches(text), text).toEqual([]);
  });
});
