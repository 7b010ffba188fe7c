// Plain constants, shared by the global setup (main process) and the test files.
/** Its own build folder, so the suite never races `npm run build` or another suite's build. */
export const DIST_DIR = ".next-hardening";
/** Distinctive, so a leak into the bundle or a response is unmistakable (set at build time too). */
export const HARDENING_KEY = "fbk_hardening_Q7zR2mX9vK4pL8wN3tB6yC1";
