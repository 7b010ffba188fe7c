import { describe, expect, it } from "vitest";

import { parseConfig } from "@/lib/config";

import { backgroundPlan, workerRefusal } from "./roles";

// Which process runs the jobs (docs/decisions.md, "Workers apart (issue 38)").
const POSTGRES = { DATABASE_URL: "postgres://u:p@db.example.test/fundboard" };

describe("backgroundPlan", () => {
  it("runs the jobs in the dashboard by default, on either database", () => {
    expect(backgroundPlan("web", parseConfig({}))).toEqual({ jobs: true, liveListener: true });
    expect(backgroundPlan("web", parseConfig(POSTGRES))).toEqual({ jobs: true, liveListener: true });
  });

  it("runs no job in a web-only dashboard (WORKERS=0), which still hears every instance", () => {
    expect(backgroundPlan("web", parseConfig({ ...POSTGRES, WORKERS: "0" }))).toEqual({ jobs: false, liveListener: true });
  });

  it("runs the jobs in a worker whatever WORKERS says (one configuration for every process), and listens to nothing (it serves no browser; its transactions announce)", () => {
    for (const WORKERS of ["0", "1"]) expect(backgroundPlan("worker", parseConfig({ ...POSTGRES, WORKERS }))).toEqual({ jobs: true, liveListener: false });
  });
});

describe("workerRefusal", () => {
  it("refuses a worker on the embedded database, naming DATABASE_URL and the folder", () => {
    const refusal = workerRefusal(parseConfig({ DATA_DIR: "/srv/fundboard-data" }));
    expect(refusal).toMatch(/^Fundboard's worker cannot start: `npm run worker` needs DATABASE_URL\./);
    expect(refusal).toContain("/srv/fundboard-data");
  });

  it("lets a worker start on Postgres", () => {
    expect(workerRefusal(parseConfig(POSTGRES))).toBeNull();
  });
});
