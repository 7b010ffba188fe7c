// The one check of path parameters: every dynamic segment's name says what kind of id it holds, and
// withStaff (and the detail pages) refuse a malformed one as "not found" before any query sees it.
import { PAYER_TAG_RE } from "@/lib/client/payers/tag";
import { REQUEST_ID_RE } from "@/lib/service/client";
// 8-4-4-4-12 hex, what Postgres's uuid type takes: campaigns, staff, sessions and payments use them.
import { UUID_RE } from "@/lib/service/schemas";

/** Every dynamic segment name used under app/, and the form its value must have. A new name must be added here. */
const PARAM_FORMS: Record<string, RegExp> = {
  id: UUID_RE,
  uuid: UUID_RE,
  requestId: REQUEST_ID_RE,
  tag: PAYER_TAG_RE,
  // A pay page's public address, and a payer's status link (docs/architecture.md "Pay pages").
  slug: /^[a-z0-9-]{3,60}$/,
  token: /^[A-Za-z0-9_-]{16,64}$/,
};

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

/** The first parameter whose value does not have its form (or whose name has no form), else null. */
export function malformedParam(params: Record<string, string | string[] | undefined> | undefined): string | null {
  // A route without dynamic segments has no params at all.
  for (const [name, value] of Object.entries(params ?? {})) {
    const form = PARAM_FORMS[name];
    if (!form || typeof value !== "string" || !form.test(value)) return name;
  }
  return null;
}
