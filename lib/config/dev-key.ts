// The sandbox's fixed key, so the dashboard and the sandbox agree out of the box; a live dashboard refuses it (lib/config).
export const DEV_API_KEY = "sk_sandbox_fundboard_dev_0000000000000000";
