// `npm run user:create -- --email … --role … [--name …] [--password …]`: adds a staff account from the shell.
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";

import { ConfigError, parseConfig } from "@/lib/config";
import { openDatabase } from "@/lib/db/client";
import { DatabaseLockedError } from "@/lib/db/lock";
import { writeAudit } from "@/lib/audit/write";
import { createStaff } from "@/lib/auth/accounts";
import { staffCreateSchema } from "@/lib/client/staff/schemas";
import { claimDatabaseMode, DatabaseModeError, describeDatabase } from "@/lib/db/mode";

function die(message: string): never {
  console.error(message);
  process.exit(1);
}

let values;
try {
  ({ values } = parseArgs({
    options: { email: { type: "string" }, role: { type: "string" }, name: { type: "string" }, password: { type: "string" } },
    strict: true,
  }));
} catch (error) {
  die(
    `${error instanceof Error ? error.message : String(error)}\nUsage: npm run user:create -- --email person@company.com --role admin|operator|viewer [--name "Full Name"] [--password …]`,
  );
}

const generated = values.password === undefined && process.env.FUNDBOARD_NEW_PASSWORD === undefined;
const password = values.password ?? process.env.FUNDBOARD_NEW_PASSWORD ?? randomBytes(12).toString("base64url");
const parsed = staffCreateSchema.safeParse({
  email: values.email ?? "",
  role: values.role ?? "",
  name: values.name ?? values.email?.split("@")[0] ?? "",
  password,
});
if (!parsed.success) {
  die(
    `Cannot create the account:\n${parsed.error.issues.map((i) => `  --${String(i.path[0])}: ${i.message}`).join("\n")}\n` +
      'Usage: npm run user:create -- --email person@company.com --role admin|operator|viewer [--name "Full Name"] [--password …]',
  );
}

let config;
try {
  config = parseConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) die(error.message);
  throw error;
}

let database;
try {
  database = await openDatabase(config.database);
} catch (error) {
  if (error instanceof DatabaseLockedError) {
    die(
      `The dashboard is running and holds the embedded database in ${config.dataDir} (pid ${error.holderPid}).\n` +
        "Either add the account from the Staff page (/staff) as an admin, or stop the dashboard (Ctrl-C) and run this command again.",
    );
  }
  die(`Could not open the database: ${error instanceof Error ? error.message : String(error)}`);
}

try {
  await claimDatabaseMode(database.db, config.sandbox ? "sandbox" : "live", describeDatabase(config.database));
} catch (error) {
  await database.close();
  if (error instanceof DatabaseModeError) die(error.message);
  throw error;
}

try {
  const row = await createStaff(database.db, parsed.data);
  if (!row) die(`An account for ${parsed.data.email} already exists; nothing was changed.`);
  await writeAudit(database.db, { action: "staff.created", target: row.email, detail: { role: row.role, via: "user:create" } });
  console.log(`Created ${row.role} ${row.email}.${generated ? `\nPassword: ${password}\n(shown once; ask them to keep it private)` : ""}`);
} finally {
  await database.close();
}
