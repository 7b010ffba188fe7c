// `npm run build:standalone`: `next build` with output "standalone", then the static files and
// migrations copied beside server.js, so `node .next/standalone/server.js` is all a host needs.
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { HEAP_GROWING_FLAG } from "./next-start";

const root = path.resolve(import.meta.dirname, "..");
const distDir = process.env.NEXT_DIST_DIR || ".next";
const result = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NEXT_OUTPUT: "standalone", NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
});
if (result.status !== 0) {
  console.error("`next build` failed; see its output above.");
  process.exit(1);
}
const standalone = path.join(root, distDir, "standalone");
if (!existsSync(path.join(standalone, "server.js"))) {
  console.error(`No ${distDir}/standalone/server.js was produced.`);
  process.exit(1);
}
cpSync(path.join(root, distDir, "static"), path.join(standalone, distDir, "static"), { recursive: true });
cpSync(path.join(root, "public"), path.join(standalone, "public"), { recursive: true });
cpSync(path.join(root, "drizzle"), path.join(standalone, "drizzle"), { recursive: true });
// The standalone server stamps each request's socket address like `npm start` does (TRUST_PROXY).
copyFileSync(path.join(root, "scripts", "request-preload.cjs"), path.join(standalone, "request-preload.cjs"));
// The SMTP pool's thread is read from the folder the server runs in, and loads nodemailer (which has no dependencies).
cpSync(path.join(root, "lib", "mail", "smtp-thread.cjs"), path.join(standalone, "lib", "mail", "smtp-thread.cjs"));
cpSync(path.join(root, "node_modules", "nodemailer"), path.join(standalone, "node_modules", "nodemailer"), { recursive: true });
const serverJs = path.join(standalone, "server.js");
// The heap's growth as `npm start` sets it on the command line (read by V8 at each collection, so setting it first thing holds).
writeFileSync(
  serverJs,
  `require("v8").setFlagsFromString(${JSON.stringify(HEAP_GROWING_FLAG)});\nrequire("./request-preload.cjs");\n${readFileSync(serverJs, "utf8")}`,
);
console.log(`Standalone server ready: node ${path.relative(root, path.join(standalone, "server.js"))} (set PORT, DATABASE_URL, …)`);
