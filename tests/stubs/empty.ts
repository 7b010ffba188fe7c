// Stands in for `server-only` under vitest, which runs outside the react-server condition.
export {};
