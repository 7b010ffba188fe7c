// Its own config, so the root next.config.ts (found by searching upwards) does not apply: a blank Next.js 16 app.
/** @type {import('next').NextConfig} */
const config = {};

export default config;
