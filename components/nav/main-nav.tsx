import Link from "next/link";

import type { Role } from "@/lib/client/auth/roles";

const LINKS: { href: string; label: string; roles: readonly Role[] }[] = [
  { href: "/", label: "Overview", roles: ["admin", "operator", "viewer"] },
  { href: "/requests", label: "Requests", roles: ["admin", "operator", "viewer"] },
  { href: "/requests/new", label: "New request", roles: ["admin", "operator"] },
  { href: "/campaigns", label: "Campaigns", roles: ["admin", "operator", "viewer"] },
  { href: "/payments", label: "Payments", roles: ["admin", "operator", "viewer"] },
  { href: "/webhooks", label: "Deliveries", roles: ["admin"] },
  { href: "/staff", label: "Staff", roles: ["admin"] },
  { href: "/audit", label: "Audit log", roles: ["admin"] },
  { href: "/account", label: "Account", roles: ["admin", "operator", "viewer"] },
];

/** While the team requires two-step sign-in of someone who has none, their account page is all that opens. */
const ENROLMENT_LINKS = new Set(["/account"]);

export function MainNav({ role, mustEnrol = false }: { role: Role; mustEnrol?: boolean }) {
  return (
    <nav aria-label="Main" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {LINKS.filter((l) => l.roles.includes(role) && (!mustEnrol || ENROLMENT_LINKS.has(l.href))).map((l) => (
        <Link key={l.href} href={l.href} className="text-slate-700 hover:text-slate-950 hover:underline">
          {l.label}
        </Link>
      ))}
    </nav>
  );
}
