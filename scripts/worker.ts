// `npm run worker`: works the jobs only, beside web-only instances (WORKERS=0) on one Postgres (docs/architecture.md,
// "Jobs"; docs/decisions.md, "Workers apart (issue 38)"). Stops gracefully on SIGTERM or SIGINT.
export {};

// In production unless told otherwise, as `npm start` runs the dashboard (APP_URL is then required with a real
// service: campaign sends give the service the webhook address). Set before the app's modules load.
if (!process.env.NODE_ENV) Object.assign(process.env, { NODE_ENV: "production" });

const { startWorker } = await import("@/lib/server/worker");
await startWorker();
