import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { clientIp } from "@/lib/http/client-ip";
import { fail, ok } from "@/lib/http/envelope";
import { announcePayment } from "@/lib/payments/after-record";
import { getFollowUps } from "@/lib/payments/follow-ups";
import { safeErrorSummary } from "@/lib/log/safe-error";
import { MAX_WEBHOOK_BYTES, processDelivery } from "@/lib/webhooks/intake";
import { rejectionLogFor } from "@/lib/webhooks/rejection-log";
import { readCapped } from "@/lib/http/read-capped";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

// A few dozen bytes for the service's client: gzip would cost more than it saves (the server's
// compression skips responses marked no-transform).
const NO_COMPRESSION = { "Cache-Control": "no-store, no-transform" };

/** The service's signed peer-transfer.success deliveries; no session, the signature is the credential. */
export async function POST(request: Request) {
  const followUps = getFollowUps();
  // Follow-ups of earlier payments give way only to deliveries whose signature is valid: junk never
  // touches the queue (DESIGN §5.10), and is answered without waiting on the database.
  let delivered: () => void = () => undefined;
  try {
    const config = getConfig();
    const db = await getDb();
    const read = await readCapped(request, MAX_WEBHOOK_BYTES);
    const result = await processDelivery(
      {
        db,
        apiKey: config.service.apiKey,
        amountUnit: config.service.amountUnit,
        rejections: rejectionLogFor(db),
        onAuthentic: () => {
          delivered = followUps.deliveryStarted();
        },
      },
      {
        raw: read.ok ? read.bytes : null,
        signature: request.headers.get("x-service-signature"),
        contentType: request.headers.get("content-type"),
        remoteAddr: clientIp(request.headers),
      },
    );
    const uuid = result.recordedUuid;
    if (uuid) {
      announcePayment(uuid);
      followUps.enqueue(uuid);
    }
    return result.status === 200 ? ok({}, result.message, 200, NO_COMPRESSION) : fail(result.status, result.message, undefined, NO_COMPRESSION);
  } catch (error) {
    console.error(`[webhook] delivery failed: ${safeErrorSummary(error)}`);
    return fail(500, "The delivery could not be processed; please retry.", undefined, NO_COMPRESSION);
  } finally {
    delivered();
  }
}

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
