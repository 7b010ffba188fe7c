// Loaded with `node --require` by the server that `npm start` and the standalone build run, before Next.js sees a
// request: (1) route handlers never see the socket, so every request gets the address the socket saw in a header a
// client cannot set (a client-sent copy is overwritten; lib/http/client-ip.ts reads it, TRUST_PROXY); (2) a path
// whose percent-encoding does not decode is refused with the API's envelope and a code, where Next.js would answer
// a plain-text 500 before any route's guard (docs/decisions.md, "Malformed paths").
"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload, loaded before any ES module */
const http = require("node:http");

const PEER_HEADER = "x-fundboard-peer";
const emit = http.Server.prototype.emit;

/** True when every %-escape in the path decodes (the query is left to the routes, which parse it themselves). */
function pathDecodes(url) {
  const path = String(url || "/").split("?")[0];
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function refuseMalformedPath(response) {
  const body = JSON.stringify({
    status: false,
    message: "The address holds a broken %-escape (a % must be followed by two hex digits that spell UTF-8), so it was refused. Check the link and try again.",
    code: "validation_failed",
    data: {},
  });
  response.writeHead(400, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  });
  response.end(body);
}

http.Server.prototype.emit = function emitWithPeer(event, request, ...rest) {
  if (event === "request" && request && request.headers) {
    request.headers[PEER_HEADER] = (request.socket && request.socket.remoteAddress) || "";
    const response = rest[0];
    if (response && !pathDecodes(request.url)) {
      refuseMalformedPath(response);
      return true;
    }
  }
  return emit.call(this, event, request, ...rest);
};

// Tells lib/http/client-ip.ts that the header above is ours, not the client's.
globalThis[Symbol.for("fundboard.peerStamp")] = true;
