// Sandbox mode only: a known admin so a fresh `npm start` can be signed into at once.
export const DEMO_ADMIN = { email: "admin@fundboard.test", password: "fundboard-demo", name: "Demo Admin" } as const;
