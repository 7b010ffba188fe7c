// Next.js bundles a module once per entry (instrumentation, each route, server components), while some
// objects (the service client, its errors) cross bundles: an error made by one copy of a class must pass
// another copy's `instanceof`. Instances carry a process-wide list of the class names they belong to, and
// every cross-bundle check reads that list, never the prototype chain. The one such check in the codebase.
const BRANDS = Symbol.for("fundboard.brands");

type Branded = { [BRANDS]?: readonly string[] };

/** The class names `value` was branded with (none for anything else). */
export function brandsOf(value: unknown): readonly string[] {
  return typeof value === "object" && value !== null ? ((value as Branded)[BRANDS] ?? []) : [];
}

/** Marks `value` as an instance of `name` (a subclass adds its own name after its parent's). */
export function addBrand(value: object, name: string): void {
  (value as Branded)[BRANDS] = [...brandsOf(value), name];
}

/** True for an object branded `name` by any copy of its class's module. */
export function hasBrand(value: unknown, name: string): boolean {
  return brandsOf(value).includes(name);
}

/** For tests standing in for another bundle's copy: the key the brands live under. */
export const BRAND_KEY: typeof BRANDS = BRANDS;
