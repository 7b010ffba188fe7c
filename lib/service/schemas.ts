import "server-only";
import { z } from "zod";

// Wire shapes of the service interface (sections 2.1–2.4 and the verify answer). Money stays a JS number here.

/** Envelope 2.1 around an operation-specific `data`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.boolean(), message: z.string(), data });
}

/** Only what every answer, error answers included, is read for. */
export const envelopeHeadSchema = z.object({
  status: z.boolean().optional(),
  message: z.string().optional(),
});

// The service sends a number on create and a string on fetch; callers only ever see the string.
export const requestIdSchema = z
  .union([z.string().min(1), z.number().int().nonnegative()], { error: "expected a non-empty string or a whole number" })
  .transform((id) => String(id));

export const requestStatusSchema = z.enum(["pending", "accepted", "declined"]);
export type RequestStatus = z.infer<typeof requestStatusSchema>;

export const partySchema = z.object({ name: z.string(), tag: z.string() });
export type Party = z.infer<typeof partySchema>;

// The service echoes what we sent as meta; unknown keys are kept, a missing meta reads as empty.
export const fundRequestMetaSchema = z
  .looseObject({
    notificationUrl: z.string().optional(),
    transactionReference: z.string().optional(),
  })
  .nullish()
  .transform((meta) => meta ?? {});

export const fundRequestSchema = z.object({
  request_id: requestIdSchema,
  description: z.string(),
  amount: z.number(),
  request_status: requestStatusSchema,
  requested_by: partySchema,
  requested_sent_to: partySchema,
  meta: fundRequestMetaSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type FundRequest = z.infer<typeof fundRequestSchema>;

export const createFundRequestDataSchema = z.object({ request_id: requestIdSchema });
export type CreateFundRequestData = z.infer<typeof createFundRequestDataSchema>;

export const walletSchema = z.object({
  name: z.string(),
  main_wallet: z.boolean(),
  balance: z.number(),
  formatted_balance: z.string(),
});
export type Wallet = z.infer<typeof walletSchema>;

export const balanceSchema = z.object({
  total_balance: z.number(),
  wallets: z.array(walletSchema),
});
export type Balance = z.infer<typeof balanceSchema>;

/** 8-4-4-4-12 hex; version and variant bits are not checked, so any service-issued uuid passes. */
export const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const uuidSchema = z.string().regex(UUID_RE, "expected a uuid");

// A payment must not be refused over a field the dashboard does not need: contact details, the
// customer's uuid and `frequency` may be null or absent. `bvn` is left out on purpose: zod strips it,
// whatever its type, so it never reaches code that writes.
export const peerTransferCustomerSchema = z.object({
  uuid: z.string().nullish(),
  avatar: z.string().nullish(),
  name: z.string(),
  email: z.string().nullish(),
  phone: z.string().nullish(),
  tag: z.string(),
  frequency: z.number().nullish(),
});
export type PeerTransferCustomer = z.infer<typeof peerTransferCustomerSchema>;

/** Webhook payload 2.4; unknown keys are stripped. */
export const peerTransferPayloadSchema = z.object({
  type: z.string(),
  uuid: uuidSchema,
  amount: z.number(),
  actual_amount: z.number(),
  settled_amount: z.number(),
  description: z.string(),
  fees: z.number(),
  paypoint: z.boolean().nullish(),
  customer: peerTransferCustomerSchema,
  meta: z.object({ peer_tag: z.string(), name: z.string() }),
});
export type PeerTransferPayload = z.infer<typeof peerTransferPayloadSchema>;

export const PEER_TRANSFER_SUCCESS = "peer-transfer.success";

/** The event `type` of a parsed webhook body, without validating the rest; null when there is none. */
export function webhookEnvelopeType(body: unknown): string | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const type: unknown = (body as { type?: unknown }).type;
  return typeof type === "string" ? type : null;
}

export function isPeerTransferSuccess(payload: Pick<PeerTransferPayload, "type">): boolean {
  return payload.type === PEER_TRANSFER_SUCCESS;
}

// The interface does not show this shape: require only the uuid and type what we compare.
export const verifiedTransactionSchema = z.looseObject({
  uuid: z.string(),
  status: z.string().optional(),
  amount: z.number().optional(),
  actual_amount: z.number().optional(),
  settled_amount: z.number().optional(),
  fees: z.number().optional(),
});
export type VerifiedTransaction = z.infer<typeof verifiedTransactionSchema>;

export const fundRequestEnvelopeSchema = envelope(fundRequestSchema);
export const createFundRequestEnvelopeSchema = envelope(createFundRequestDataSchema);
export const balanceEnvelopeSchema = envelope(balanceSchema);
export const verifiedTransactionEnvelopeSchema = envelope(verifiedTransactionSchema);
