import Link from "next/link";

import { plainAddress } from "@/lib/http/address";
import type { BadSignatureSummary } from "@/lib/webhooks/log-queries";

/** The banner shows from this many bad signatures in an hour (docs/architecture.md). */
export const BAD_SIGNATURE_BANNER_MIN = 3;

/**
 * docs/architecture.md: repeated bad signatures mean either the two sides hold different secrets or someone is
 * forging deliveries. The banner says, for the finance team, what it means for payments and who to tell; the
 * line for the developer names the setting and the sources that tell the two causes apart.
 */
export function BadSignatureBanner({ summary }: { summary: BadSignatureSummary }) {
  const { total, sources } = summary;
  const named = sources.reduce((n, s) => n + s.count, 0);
  const rest = total - named;
  return (
    <div role="alert" data-testid="bad-signature-banner" className="border-b border-red-200 bg-red-50 text-red-900">
      <div className="mx-auto max-w-6xl space-y-1 px-4 py-3 text-sm">
        <p>
          <span className="font-semibold">
            {total.toLocaleString("en")} payment message{total === 1 ? " was" : "s were"} refused in the last hour: not signed with our webhook secret.
          </span>{" "}
          Nothing was recorded from {total === 1 ? "it" : "them"}. If {total === 1 ? "it was a real payment, it is" : "they were real payments, they are"} not
          on the payments page until the secret is put right and the service sends {total === 1 ? "it" : "them"} again; payments that arrive correctly are not
          affected.
        </p>
        <p>
          <span className="font-medium">What to do:</span> tell whoever set up the webhook secret (your developer or admin). The payment service&apos;s secret
          may have changed, or someone else may be sending fake payment messages.
        </p>
        <p className="break-words text-red-800">
          <span className="font-medium">For your developer:</span> check that SERVICE_API_KEY matches the service&apos;s (a stray space or newline, or another
          environment&apos;s key). If these addresses are not the service&apos;s, the messages are forged deliveries and the key may be fine. From:{" "}
          <span data-testid="bad-signature-sources">
            {sources.map((s, i) => (
              <span key={s.addr ?? "other"} data-testid="bad-signature-source">
                {i > 0 ? ", " : null}
                <span className="font-mono whitespace-nowrap">{s.addr ? plainAddress(s.addr) : "other addresses"}</span> ({s.count.toLocaleString("en")})
              </span>
            ))}
            {rest > 0 ? `, and ${rest.toLocaleString("en")} from other addresses` : null}
          </span>
          .{" "}
          <Link href="/webhooks?outcome=bad_signature" className="font-medium underline">
            See them in the delivery log.
          </Link>
        </p>
      </div>
    </div>
  );
}
