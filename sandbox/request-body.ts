// Validation of the create-fund-request body, with 400 messages that name the offending field.
import { amountToKobo } from "./amounts";
import { TAG_PATTERN } from "./consumers";
import { HttpError, isRecord } from "./http-util";
import type { AmountUnit } from "./types";

export interface PeerRequestInput {
  amount: number;
  amountKobo: bigint;
  tag: string;
  description: string;
  meta: Record<string, unknown>;
}

const MAX_DESCRIPTION_LENGTH = 1000;

function invalid(message: string): HttpError {
  return new HttpError(400, message);
}

export function parsePeerRequest(body: unknown, unit: AmountUnit): PeerRequestInput {
  if (!isRecord(body)) throw invalid("Request body must be a JSON object");
  const { amount, tag, description } = body;
  if (typeof amount !== "number" || !Number.isFinite(amount) || amount <= 0) {
    throw invalid("amount must be a number greater than 0");
  }
  const amountKobo = amountToKobo(amount, unit);
  if (amountKobo === null) {
    throw invalid(
      unit === "major" ? "amount must have at most 2 decimal places (amounts are in naira)" : "amount must be a whole number (amounts are in kobo)",
    );
  }
  if (amountKobo > BigInt(Number.MAX_SAFE_INTEGER)) throw invalid("amount is too large");
  if (typeof tag !== "string") throw invalid("tag must be a string");
  if (!TAG_PATTERN.test(tag)) throw invalid("tag must be 2-32 characters of letters, digits, '.', '_' or '-'");
  if (typeof description !== "string") throw invalid("description must be a string");
  if (description.length > MAX_DESCRIPTION_LENGTH) throw invalid(`description must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
  return { amount, amountKobo, tag, description, meta: parseMeta(body.meta) };
}

function parseMeta(meta: unknown): Record<string, unknown> {
  if (meta === undefined) return {};
  if (!isRecord(meta)) throw invalid("meta must be an object");
  const { notificationUrl, transactionReference } = meta;
  if (notificationUrl !== undefined && !(typeof notificationUrl === "string" && isHttpUrl(notificationUrl))) {
    throw invalid("meta.notificationUrl must be an http(s) URL");
  }
  if (transactionReference !== undefined && typeof transactionReference !== "string") {
    throw invalid("meta.transactionReference must be a string");
  }
  return meta;
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
