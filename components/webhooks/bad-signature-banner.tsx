import Link from "next/link";

/** DESIGN §5.9: repeated bad signatures almost always mean the two sides hold different keys. */
export function BadSignatureBanner({ count }: { count: number }) {
  return (
    <div role="alert" data-testid="bad-signature-banner" className="border-b border-red-200 bg-red-50 text-red-900">
      <p className="mx-auto max-w-6xl px-4 py-3 text-sm">
        <span className="font-semibold">
          {count} deliveries with a bad signature in the last hour.
        </span>{" "}
        The likely cause is a wrong SERVICE_API_KEY (a stray space or newline, or another environment&apos;s key).{" "}
        <Link href="/webhooks" className="font-medium underline">
          See the delivery log.
        </Link>
      </p>
    </div>
  );
}
