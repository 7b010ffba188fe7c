// The few dashboard calls the benchmarks need, through a signed-in Session.
import { randomUUID } from "node:crypto";

import type { Session } from "./session";

export async function createStaff(admin: Session, role: "admin" | "operator" | "viewer", email: string, password: string): Promise<void> {
  const res = await admin.json<{ id: string }>("/api/staff", { method: "POST", body: JSON.stringify({ email, name: `Bench ${role}`, role, password }) });
  if (res.status !== 201) throw new Error(`creating ${email}: HTTP ${res.status} ${res.message}`);
}

/** Sends a fund request to `tag`; answers the service's request id. */
export async function createRequest(sender: Session, tag: string, amount = "150.00"): Promise<string> {
  const res = await sender.json<{ requestId: string | null; status: string }>("/api/requests", {
    method: "POST",
    body: JSON.stringify({ tag, amount, description: "Benchmark request", idempotencyKey: randomUUID() }),
  });
  if (res.status !== 201 || !res.data?.requestId) throw new Error(`creating a request to ${tag}: HTTP ${res.status} ${res.message}`);
  return res.data.requestId;
}

let tagCounter = 0;
/** A consumer tag nobody has used: the sandbox makes a consumer who waits for a person. */
export function freshTag(prefix: string): string {
  tagCounter += 1;
  return `${prefix}.${Date.now().toString(36)}${tagCounter}`.slice(0, 32);
}

/** The sandbox's control API: act as the consumer, read and reset the call counts. */
export function sandboxControl(apiUrl: string) {
  return {
    async act(requestId: string, action: "accept" | "decline"): Promise<void> {
      const res = await fetch(`${apiUrl}/sandbox/requests/${encodeURIComponent(requestId)}/${action}`, { method: "POST" });
      if (!res.ok) throw new Error(`sandbox ${action} of ${requestId}: HTTP ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    },
    async stats(): Promise<Record<string, number>> {
      const res = await fetch(`${apiUrl}/sandbox/stats`);
      return ((await res.json()) as { calls: Record<string, number> }).calls;
    },
    async resetStats(): Promise<void> {
      const res = await fetch(`${apiUrl}/sandbox/stats/reset`, { method: "POST" });
      await res.arrayBuffer();
    },
  };
}
