// Next.js may load a module once per bundle (route handlers, server components, instrumentation), so module-level
// state would exist several times in one process. What must be one per process lives here: on globalThis under a
// registered symbol (`fundboard.<name>`), made on first use.

type Registry = Record<symbol, unknown>;

/** The process's one `name`, made by `make` the first time it is asked for. */
export function processSingleton<T>(name: string, make: () => T): T {
  const key = Symbol.for(`fundboard.${name}`);
  const g = globalThis as unknown as Registry;
  if (!(key in g)) g[key] = make();
  return g[key] as T;
}

/** The process's `name` if it has been made, without making it. */
export function peekProcessSingleton<T>(name: string): T | undefined {
  return (globalThis as unknown as Registry)[Symbol.for(`fundboard.${name}`)] as T | undefined;
}

/** Makes `value` the process's `name` (something made asynchronously, once started). */
export function setProcessSingleton<T>(name: string, value: T): T {
  (globalThis as unknown as Registry)[Symbol.for(`fundboard.${name}`)] = value;
  return value;
}

/** Forgets the process's `name` (a stopped engine, say), so the next ask makes a new one. */
export function dropProcessSingleton(name: string): void {
  delete (globalThis as unknown as Registry)[Symbol.for(`fundboard.${name}`)];
}
