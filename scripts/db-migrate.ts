// `npm run db:migrate`: applies the migrations in drizzle/ to DATABASE_URL (or the embedded database) ahead of a deploy.
import { ConfigError, parseConfig } from "@/lib/config";
import { openDatabase, MIGRATIONS_DIR } from "@/lib/db/client";
import { DatabaseLockedError } from "@/lib/db/lock";

let config;
try {
  config = parseConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const where = config.database.kind === "postgres" ? "Postgres (DATABASE_URL)" : `the embedded database in ${config.dataDir}`;
try {
  const started = Date.now();
  const database = await openDatabase(config.database, { migrate: true });
  await database.close();
  console.log(`Migrations from ${MIGRATIONS_DIR} are applied to ${where} (${Date.now() - started} ms).`);
} catch (error) {
  if (error instanceof DatabaseLockedError) {
    console.error(`${error.message}\nThe running server applies migrations itself at start.`);
    process.exit(1);
  }
  console.error(`Could not migrate ${where}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
