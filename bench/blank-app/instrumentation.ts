// Stops Turbopack from picking up the dashboard's instrumentation.ts two folders up; does nothing.
export function register(): void {}
