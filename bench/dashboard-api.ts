// The few dashboard calls the benchmarks need, through a signed-in Session.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";

import type { CampaignView } from "@/lib/client/campaigns/view";
import { chooseOwnPassword } from "@/tests/support/sign-in";

import type { Session } from "./session";

/** Makes an account as an admin does and takes its first sign-in's step (its own password); answers that password. */
export async function createStaff(admin: Session, role: "admin" | "operator" | "viewer", email: string, password: string): Promise<string> {
  const res = await admin.json<{ id: string }>("/api/staff", { method: "POST", body: JSON.stringify({ email, name: `Bench ${role}`, role, password }) });
  if (res.status !== 201) throw new Error(`creating ${email}: HTTP ${res.status} ${res.message}`);
  return chooseOwnPassword(admin.baseUrl, email, password);
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

/** A campaign file of `rows` rows, to tags `${prefix}1` … `${prefix}${rows}`. */
export function campaignCsv(prefix: string, rows: number): string {
  const lines = ["tag,amount,description"];
  for (let i = 1; i <= rows; i++) lines.push(`${prefix}${i},${100 + ((i * 37) % 900)},Bench campaign row ${i}`);
  return `${lines.join("\n")}\n`;
}

/** Uploads a campaign file (multipart POST /api/campaigns → 201, a draft); answers it and the round trip. */
export async function uploadCampaign(admin: Session, name: string, csv: string): Promise<{ view: CampaignView; ms: number; bytes: number }> {
  const form = new FormData();
  form.set("name", name);
  form.set("file", new Blob([csv], { type: "text/csv" }), `${name}.csv`);
  const t0 = performance.now();
  const res = await admin.fetch("/api/campaigns", { method: "POST", body: form, signal: AbortSignal.timeout(120_000) });
  const text = await res.text();
  const ms = performance.now() - t0;
  const body = JSON.parse(text) as { data?: CampaignView; message?: string };
  if (res.status !== 201 || !body.data?.id) throw new Error(`uploading ${name}: HTTP ${res.status} ${body.message ?? text.slice(0, 200)}`);
  return { view: body.data, ms, bytes: Buffer.byteLength(csv) };
}

/** Uploads a plan (`POST /api/plans`, multipart) from its schedule fields and a `tag,amount` roster; answers its id. */
export async function uploadPlan(admin: Session, fields: Record<string, string>, roster: string): Promise<{ id: string; members: number }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", new Blob([roster], { type: "text/csv" }), "roster.csv");
  const res = await admin.fetch("/api/plans", { method: "POST", body: form });
  const text = await res.text();
  const body = JSON.parse(text) as { data?: { id: string; members: number }; message?: string };
  if (res.status !== 201 || !body.data?.id) throw new Error(`uploading plan ${fields.name}: HTTP ${res.status} ${body.message ?? text.slice(0, 200)}`);
  return body.data;
}

let tagCounter = 0;
/** A consumer tag nobody has used: the sandbox makes a consumer who waits for a person. */
export function freshTag(prefix: string): string {
  tagCounter += 1;
  return `${prefix}.${Date.now().toString(36)}${tagCounter}`.slice(0, 32);
}
