// The SMTP pool's own thread (docs/architecture.md "E-mail"): nodemailer runs here, so each message's round trips are
// answered at once however busy the server's main thread is; the main thread posts a message and gets one answer.
"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file the thread loads as it is, unbundled */
const { parentPort, workerData } = require("node:worker_threads");
const nodemailer = require("nodemailer");

const transporter = nodemailer.createTransport(workerData.options);

/** What the main thread needs of a failure: nodemailer's code, the server's reply code and the message. */
function plain(error) {
  const e = typeof error === "object" && error !== null ? error : {};
  return {
    message: error instanceof Error ? error.message : String(error),
    code: typeof e.code === "string" ? e.code : undefined,
    responseCode: typeof e.responseCode === "number" ? e.responseCode : undefined,
  };
}

parentPort.on("message", (request) => {
  if (request.type === "close") {
    // Messages on their way finish and are answered; then nothing keeps this thread alive and it ends.
    transporter.close();
    parentPort.unref();
    return;
  }
  transporter.sendMail(request.mail).then(
    (info) => parentPort.postMessage({ id: request.id, info: { messageId: info.messageId, response: info.response, rejected: info.rejected.map(String) } }),
    (error) => parentPort.postMessage({ id: request.id, error: plain(error) }),
  );
});
