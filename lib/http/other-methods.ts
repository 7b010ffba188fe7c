import { fail } from "./envelope";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Handlers for the methods a route does not take: Next.js would answer those 405 with an empty
 * body, and every answer of ours carries the envelope. Spread the ones the route lacks:
 * `export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");`
 */
export function otherMethods(...allowed: Method[]): Record<Method, () => Response> {
  const refuse = () =>
    fail(405, `This address does not take that method; use ${allowed.join(" or ")}.`, undefined, { Allow: allowed.join(", ") }, "method_not_allowed");
  return { GET: refuse, POST: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse };
}
