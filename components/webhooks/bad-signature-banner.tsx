import Link from "next/link";

import type { BadSignatureSummary } from "@/lib/webhooks/log-queries";

/** The banner shows from this many bad signatures in an hour (docs/architecture.md). */
export const BAD_SIGNATURE_BANNER_MIN = 3;

/**
 * docs/architecture.md: repeated bad signatures mean either the two sides hold different keys or someone is
 * forging deliveries; naming the sources lets an admin tell which (the service's address or not).
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
            {total.toLocaleString("en")} deliver{total === 1 ? "y" : "ies"} with a bad signature in the last hour.
          </span>{" "}
          The likely cause is either a wrong SERVICE_API_KEY (a stray space or newline, or another environment&apos;s key), or someone sending forged
          deliveries. If the sources below are not the service&apos;s addresses, the deliveries are forged and the key may be fine.
        </p>
        <p className="break-words">
          <span className="font-medium">From:</span>{" "}
          <span data-testid="bad-signature-sources">
            {sources.map((s, i) => (
              <span key={s.addr ?? "other"} data-testid="bad-signature-source">
                {i > 0 ? ", " : null}
                <span className="font-mono break-all">{s.addr ?? "other addresses"}</span> ({s.count.toLocaleString("en")})
              </span>
            ))}
            {rest > 0 ? `, and ${rest.toLocaleString("en")} from other addresses` : null}
          </span>
          .{" "}
          <Link href="/webhooks" className="font-medium underline">
            See the delivery log.
          </Link>
        </p>
      </div>
    </div>
  );
}
