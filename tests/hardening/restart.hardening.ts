// Issue 7, item 3: requests still pending when the server stops are decided while it is down; after the
// restart the reconciler (not a page or a detail call) picks them up again and they reach their final state.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type Sandbox } from "@/sandbox/server";

import { FETCH_CALL, sandboxControl as control } from "@/tests/support/sandbox-control";
import { signIn, type Session } from "@/tests/support/sign-in";
import { waitFor } from "@/tests/support/wait-for";

import {
  DEMO,
  HARDENING_KEY,
  PORTS,
  createRequest,
  freshDataDir,
  sandboxModeEnv,
  startDashboard,
  type Dashboard,
  type Envelope,
  type FundRequestView,
  type ListData,
} from "./support";

describe("3. restart with pending requests", () => {
  let sandbox: Sandbox;
  let app: Dashboard | undefined;
  const data = freshDataDir("restart");
  const env = sandboxModeEnv(PORTS.restart.sandbox);

  beforeAll(async () => {
    // Accepting sends a webhook; pointed nowhere and never retried, so only the reconciler can learn the outcome.
    sandbox = await startSandbox({
      port: PORTS.restart.sandbox,
      apiKey: HARDENING_KEY,
      webhookUrl: "http://127.0.0.1:9/nowhere",
      webhookRetryDelaysMs: [],
      log: () => {},
    });
  });

  afterAll(async () => {
    await app?.stop("SIGKILL");
    await sandbox?.close();
    data.remove();
  });

  async function idsWithStatus(session: Session, status: FundRequestView["status"]): Promise<string[]> {
    // The list reads the database only; unlike GET /api/requests/:id it never asks the service.
    const res = await session.json<Envelope<ListData<FundRequestView>>>(`/api/requests?status=${status}`);
    expect(res.status).toBe(200);
    return res.body.data.items.map((r) => r.requestId ?? "");
  }

  it("requests decided while the server was down reach accepted/declined after the restart", async () => {
    const sb = control(sandbox.apiUrl);
    app = await startDashboard({ port: PORTS.restart.app, dataDir: data.dir, env });
    const admin = await signIn(app.url, DEMO.email, DEMO.password);
    const stamp = Date.now().toString(36);
    const made: FundRequestView[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await createRequest(admin, { tag: `wait.${stamp}.${i}`, amount: 100 + i, description: `Restart check ${i}` }));
    }
    const ids = made.map((r) => r.requestId ?? "");
    expect(made.map((r) => r.status)).toEqual(["pending", "pending", "pending", "pending", "pending"]);
    expect((await idsWithStatus(admin, "pending")).sort()).toEqual([...ids].sort());
    const [acceptA, acceptB, declineA, declineB, undecided] = ids as [string, string, string, string, string];

    await app.stop();
    expect(app.exited).toBe(true);

    await sb.accept(acceptA);
    await sb.accept(acceptB);
    await sb.decline(declineA);
    await sb.decline(declineB);
    await sb.resetStats();

    app = await startDashboard({ port: PORTS.restart.app, dataDir: data.dir, env });
    const started = Date.now();
    const again = await signIn(app.url, DEMO.email, DEMO.password);
    const final = await waitFor(
      "the reconciler to record the decisions made while the server was down",
      async () => {
        const accepted = (await idsWithStatus(again, "accepted")).sort();
        const declined = (await idsWithStatus(again, "declined")).sort();
        return accepted.length === 2 && declined.length === 2 ? { accepted, declined } : undefined;
      },
      60_000,
      250,
    );
    const tookMs = Date.now() - started;
    expect(final.accepted).toEqual([acceptA, acceptB].sort());
    expect(final.declined).toEqual([declineA, declineB].sort());
    // The one nobody decided is still pending: nothing was moved that should not have been.
    expect(await idsWithStatus(again, "pending")).toEqual([undecided]);
    // It was the reconciler's own service calls that learned it.
    const fetches = (await sb.calls())[FETCH_CALL] ?? 0;
    expect(fetches).toBeGreaterThanOrEqual(4);
    console.log(
      `[hardening] restart: decisions recorded ${tookMs} ms after the restart (${fetches} fetch calls by the reconciler); restart healthy in ${app.readyMs} ms`,
    );
  });
});
