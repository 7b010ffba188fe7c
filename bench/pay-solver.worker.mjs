// Solves pay-page challenges off the bench's main thread (benchmark 18): altcha-lib, as the payer's browser does.
import { parentPort } from "node:worker_threads";

import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";

parentPort.on("message", async (challenge) => {
  const solution = await solveChallenge({ challenge, deriveKey });
  parentPort.postMessage(Buffer.from(JSON.stringify({ challenge, solution })).toString("base64"));
});
