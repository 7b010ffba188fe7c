// Fixed key so the app and the sandbox agree out of the box in development.
export const DEV_API_KEY = "sk_sandbox_fundboard_dev_0000000000000000";
