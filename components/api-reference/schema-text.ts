import type { oas31 } from "zod-openapi";

// A JSON Schema written compactly for people, TypeScript-like: `{ tag: string  // The payer's tag }`. The API
// reference (app/(dashboard)/developers/api) prints it in a <pre>; the whole document is /api/v1/openapi.json.

type Schema = oas31.SchemaObject | oas31.ReferenceObject;

/** zod's integer bounds (±2^53 − 1) say nothing a reader needs. */
const SAFE = Number.MAX_SAFE_INTEGER;

export function isRef(schema: unknown): schema is oas31.ReferenceObject {
  return typeof schema === "object" && schema !== null && "$ref" in schema;
}

/** "#/components/schemas/FundRequest" → "FundRequest". */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

/** What a reader needs beside a type: its bounds, default and example. */
function notes(schema: oas31.SchemaObject): string[] {
  const out: string[] = [];
  const { minimum, maximum, minLength, maxLength, minItems, maxItems } = schema;
  const min = typeof minimum === "number" && Math.abs(minimum) < SAFE ? minimum : undefined;
  const max = typeof maximum === "number" && Math.abs(maximum) < SAFE ? maximum : undefined;
  if (min !== undefined && max !== undefined) out.push(`${min}–${max}`);
  else if (min !== undefined) out.push(`at least ${min}`);
  else if (max !== undefined) out.push(`at most ${max}`);
  if (minLength !== undefined && minLength > 0 && maxLength !== undefined) out.push(`${minLength}–${maxLength} characters`);
  else if (maxLength !== undefined) out.push(`at most ${maxLength} characters`);
  else if (minLength !== undefined && minLength > 0) out.push(`at least ${minLength} characters`);
  if (minItems !== undefined && minItems > 0) out.push(`at least ${minItems} items`);
  if (maxItems !== undefined) out.push(`at most ${maxItems} items`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.example !== undefined) out.push(`e.g. ${JSON.stringify(schema.example)}`);
  return out;
}

/** The schema's description and notes, as one comment ("" for none). */
export function commentOf(schema: Schema | undefined): string {
  if (!schema || isRef(schema)) return "";
  const own = [schema.description, ...notes(schema)].filter(Boolean).join("; ");
  if (own) return own;
  // `x | null`: what the alternatives say (a nullable time's "A time in UTC").
  const alternatives = schema.anyOf ?? schema.oneOf ?? [];
  return [...new Set(alternatives.map((a) => commentOf(a)).filter(Boolean))].join("; ");
}

/** A type written as several alternatives, which needs brackets before `[]`. */
function isUnion(schema: Schema | undefined): boolean {
  if (!schema || isRef(schema) || schema.const !== undefined) return false;
  if (schema.enum) return schema.enum.length > 1;
  if ((schema.anyOf ?? schema.oneOf ?? []).length > 1) return true;
  return Array.isArray(schema.type) && schema.type.length > 1;
}

function union(parts: string[]): string {
  return [...new Set(parts)].join(" | ");
}

/** A type on one line, or several for an object; `indent` is the object's own indentation. */
export function typeText(schema: Schema | undefined, indent = ""): string {
  if (!schema) return "unknown";
  if (isRef(schema)) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return union(schema.enum.map((v) => JSON.stringify(v)));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return union(alternatives.map((s) => typeText(s, indent)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return union(types.map((t) => typeText({ ...schema, type: t }, indent)));
  switch (types[0]) {
    case "array": {
      const item = typeText(schema.items, indent);
      return isUnion(schema.items) ? `(${item})[]` : `${item}[]`;
    }
    case "object":
      return objectText(schema, indent);
    case undefined:
      return schema.properties ? objectText(schema, indent) : "unknown";
    default:
      return types[0];
  }
}

function objectText(schema: oas31.SchemaObject, indent: string): string {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) return schema.additionalProperties === false ? "{}" : "object";
  const required = new Set(schema.required ?? []);
  const inner = `${indent}  `;
  const lines = properties.map(([name, property]) => {
    const comment = commentOf(property);
    const type = typeText(property, inner);
    const line = `${inner}${name}${required.has(name) ? "" : "?"}: ${type}`;
    if (!comment) return line;
    // A many-line type gets its comment above it; a one-line type beside it.
    return type.includes("\n") ? `${inner}// ${comment}\n${line}` : `${line}  // ${comment}`;
  });
  return `{\n${lines.join("\n")}\n${indent}}`;
}
