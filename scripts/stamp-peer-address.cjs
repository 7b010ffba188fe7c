// Loaded with `node --require` by the server that `npm start` and the standalone build run: route
// handlers never see the socket, so every request gets the address the socket saw in a header a
// client cannot set (a client-sent copy is overwritten). lib/http/client-ip.ts reads it (TRUST_PROXY).
"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload, loaded before any ES module */
const http = require("node:http");

const PEER_HEADER = "x-fundboard-peer";
const emit = http.Server.prototype.emit;

http.Server.prototype.emit = function emitWithPeer(event, request, ...rest) {
  if (event === "request" && request && request.headers) {
    request.headers[PEER_HEADER] = (request.socket && request.socket.remoteAddress) || "";
  }
  return emit.call(this, event, request, ...rest);
};

// Tells lib/http/client-ip.ts that the header above is ours, not the client's.
globalThis[Symbol.for("fundboard.peerStamp")] = true;
