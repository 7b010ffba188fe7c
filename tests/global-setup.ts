// Once for the whole unit run (vitest.config.ts): the migrated template databases every test database is copied
// from (tests/support/db-template.ts), on both engines when TEST_DATABASE_URL is set; removed when the run ends.
import type { TestProject } from "vitest/node";

import { makePgliteTemplate, makePostgresTemplate } from "@/tests/support/db-template";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const url = process.env.TEST_DATABASE_URL;
  const [made, madePg] = await Promise.allSettled([makePgliteTemplate("unit"), url ? makePostgresTemplate(url) : Promise.resolve(null)]);
  if (made.status === "rejected" || madePg.status === "rejected") {
    if (made.status === "fulfilled") made.value.remove();
    if (madePg.status === "fulfilled") await madePg.value?.drop();
    throw made.status === "rejected" ? made.reason : (madePg as PromiseRejectedResult).reason;
  }
  const [pglite, postgres] = [made.value, madePg.value];
  console.log(`[unit] migrated template database${postgres ? "s (embedded and Postgres)" : " (embedded)"} in ${Date.now() - started} ms`);
  project.provide("pgliteTemplate", pglite.dir);
  project.provide("postgresTemplate", postgres?.name ?? "");
  return async () => {
    pglite.remove();
    await postgres?.drop();
  };
}
