// `npm run sandbox`: runs the simulated service until interrupted.
import { CliConfigError, describeKey, readCliConfig, type CliConfig } from "./cli-config";
import { startSandbox } from "./server";

let config: CliConfig;
try {
  config = readCliConfig(process.env);
} catch (error) {
  if (!(error instanceof CliConfigError)) throw error;
  console.error(`sandbox: ${error.message}`);
  process.exit(1);
}

const sandbox = await startSandbox({
  port: config.port,
  apiKey: config.apiKey,
  amountUnit: config.amountUnit,
  webhookUrl: config.webhookUrl,
  log: (line) => console.log(line),
  logCalls: config.logCalls,
}).catch((error: unknown) => {
  const code = error instanceof Error && "code" in error ? ` (${String(error.code)})` : "";
  console.error(
    `sandbox: could not listen on ports ${config.port}, ${config.port + 1} and ${config.port + 2}${code}; set SANDBOX_PORT to the first of three free ports`,
  );
  process.exit(1);
});

let stopping = false;
function stop(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  console.log(`sandbox: ${signal} received, stopping`);
  sandbox.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`sandbox: error while stopping: ${String(error)}`);
      process.exit(1);
    },
  );
}
// Subscribed before the banner, so a signal sent as soon as it appears still closes cleanly.
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

console.log(`Service sandbox running (amounts in ${config.amountUnit} units)
  API:          ${sandbox.apiUrl}
  Verify:       ${sandbox.verifyUrl}
  Consumer app: ${sandbox.apiUrl}/
  Mail sink:    ${sandbox.smtpUrl} (mailbox at ${sandbox.apiUrl}/mail)
  API key:      ${describeKey(sandbox.apiKey)}${config.webhookUrl ? `\n  Webhooks to:  ${config.webhookUrl}` : ""}
  Call log:     ${config.logCalls ? "on" : "off (SANDBOX_LOG_CALLS=1 shows a line per call)"}
Press Ctrl+C to stop.`);
