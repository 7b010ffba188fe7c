// Reads the sandbox CLI's environment, failing with one line that names the bad variable.
import { DEV_API_KEY } from "@/lib/config/dev-key";
import { isHttpUrl } from "./request-body";
import { DEFAULT_PORT } from "./server";
import type { AmountUnit } from "./types";

export interface CliConfig {
  port: number;
  apiKey: string;
  amountUnit: AmountUnit;
  webhookUrl: string | undefined;
  /** SANDBOX_LOG_CALLS=1: a line per call the sandbox answers (off: the start banner stays readable). */
  logCalls: boolean;
}

export class CliConfigError extends Error {}

type Env = Readonly<Record<string, string | undefined>>;

/** Unset and blank mean "use the default". */
function setting(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

export function readCliConfig(env: Env): CliConfig {
  const portText = setting(env, "SANDBOX_PORT");
  const port = portText === undefined ? DEFAULT_PORT : Number(portText);
  if (portText !== undefined && !(/^\d+$/.test(portText) && port <= 65533)) {
    throw new CliConfigError(
      `SANDBOX_PORT must be a whole number from 0 to 65533 (the verify host and the mail sink use the next two ports); got "${portText}"`,
    );
  }
  const apiKey = setting(env, "SERVICE_API_KEY") ?? DEV_API_KEY;
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new CliConfigError("SERVICE_API_KEY must be printable ASCII without spaces");
  }
  const unit = setting(env, "SERVICE_AMOUNT_UNIT") ?? "major";
  if (unit !== "major" && unit !== "minor") {
    throw new CliConfigError(`SERVICE_AMOUNT_UNIT must be "major" or "minor"; got "${unit}"`);
  }
  const webhookUrl = setting(env, "SANDBOX_WEBHOOK_URL");
  if (webhookUrl !== undefined && !isHttpUrl(webhookUrl)) {
    throw new CliConfigError(`SANDBOX_WEBHOOK_URL must be an http(s) URL; got "${webhookUrl}"`);
  }
  const logCalls = setting(env, "SANDBOX_LOG_CALLS");
  if (logCalls !== undefined && logCalls !== "0" && logCalls !== "1") {
    throw new CliConfigError(`SANDBOX_LOG_CALLS must be 1 (log every call) or 0; got "${logCalls}"`);
  }
  return { port, apiKey, amountUnit: unit, webhookUrl, logCalls: logCalls === "1" };
}

/** The dev key is public; any other key is shown only enough to recognise it. */
export function describeKey(apiKey: string): string {
  if (apiKey === DEV_API_KEY) return `${apiKey} (development key)`;
  return apiKey.length > 12 ? `${apiKey.slice(0, 6)}…${apiKey.slice(-4)} (from SERVICE_API_KEY)` : "(set from SERVICE_API_KEY)";
}
