// Next.js calls register() once per server process: open and migrate the database before the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { startServer } = await import("./lib/server/start");
  await startServer();
}
