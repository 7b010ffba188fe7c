// The service interface's wire shapes (2.1–2.4 and the verify answer) as strict zod schemas, for tests of the sandbox.
import { z } from "zod";

/** A timestamp as the service writes it: ISO 8601 in UTC with milliseconds. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const timestamp = z.string().regex(ISO_MS);
const party = z.strictObject({ name: z.string(), tag: z.string() });

export function envelope<T extends z.ZodType>(data: T) {
  return z.strictObject({ status: z.boolean(), message: z.string(), data });
}

export const errorEnvelope = z.strictObject({ status: z.literal(false), message: z.string().min(1), data: z.strictObject({}) });

export const createdEnvelope = envelope(z.strictObject({ request_id: z.number().int().positive() }));

export const fundRequest = z.strictObject({
  request_id: z.string().regex(/^\d+$/),
  description: z.string(),
  amount: z.number(),
  request_status: z.enum(["declined", "accepted", "pending"]),
  requested_by: party,
  requested_sent_to: party,
  meta: z.looseObject({ notificationUrl: z.url().optional(), transactionReference: z.string().optional() }),
  created_at: timestamp,
  updated_at: timestamp,
});

export const balances = z.strictObject({
  total_balance: z.number(),
  wallets: z.array(z.strictObject({ name: z.string(), main_wallet: z.boolean(), balance: z.number(), formatted_balance: z.string() })),
});

export const paymentEvent = z.strictObject({
  type: z.string(),
  uuid: z.uuid(),
  amount: z.number(),
  actual_amount: z.number(),
  settled_amount: z.number(),
  description: z.string(),
  fees: z.number(),
  paypoint: z.boolean(),
  customer: z.strictObject({
    uuid: z.uuid(),
    avatar: z.url(),
    name: z.string(),
    email: z.email(),
    phone: z.string(),
    bvn: z.string().regex(/^\d{11}$/),
    tag: z.string(),
    frequency: z.number(),
  }),
  meta: z.strictObject({ peer_tag: z.string(), name: z.string() }),
});

export const verifiedTransaction = z.strictObject({
  uuid: z.uuid(),
  type: z.literal("peer-transfer.success"),
  status: z.literal("success"),
  amount: z.number(),
  actual_amount: z.number(),
  settled_amount: z.number(),
  fees: z.number(),
  description: z.string(),
  currency: z.literal("NGN"),
  customer: z.strictObject({ uuid: z.uuid(), name: z.string(), tag: z.string(), email: z.email(), phone: z.string() }),
  meta: z.strictObject({ peer_tag: z.string(), name: z.string() }),
  created_at: timestamp,
});

const attempt = z.strictObject({ status: z.number().optional(), error: z.string().optional(), at: timestamp, answeredAt: timestamp });

export const deliveries = envelope(
  z.strictObject({
    deliveries: z.array(
      z.strictObject({
        url: z.string(),
        body: z.string(),
        signature: z.string(),
        request_id: z.number(),
        transaction_uuid: z.string(),
        outcome: z.enum(["pending", "delivered", "failed"]),
        attempts: z.array(attempt),
      }),
    ),
  }),
);

export const stats = z.strictObject({ calls: z.record(z.string(), z.number().int()) });

export const acceptedEnvelope = envelope(z.strictObject({ request: fundRequest, transaction: paymentEvent }));

export const faultList = z.strictObject({
  faults: z.array(z.strictObject({ path: z.string(), mode: z.string(), remaining: z.number().nullable() })),
});
