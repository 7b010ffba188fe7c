// Plain constants, shared by the global setup (main process) and the test files.
/**
 * The build the suite's servers run. By default its own folder, built by the global setup, so the suite never races
 * `npm run build` or another suite's build; CI points it at `.next` when that build was made with HARDENING_KEY in
 * its environment (the global setup checks the build's marker), so the same sources are not built twice.
 */
export const DIST_DIR = process.env.HARDENING_DIST_DIR || ".next-hardening";
/** Distinctive, so a leak into the bundle or a response is unmistakable (set at build time too). */
export const HARDENING_KEY = "fbk_hardening_Q7zR2mX9vK4pL8wN3tB6yC1";
