// Why a person's resolve or reopen was refused, in words to show them; the routes answer it as 404, 409 or 422
// (app/api/exceptions/refused.ts), so this domain builds no HTTP answer of its own.
export type RefusalKind = "not_found" | "conflict" | "unknown_request" | "amount_differs";

export class ExceptionRefused extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
  ) {
    super(message);
    this.name = "ExceptionRefused";
  }
}
