import type { oas31 } from "zod-openapi";

import { DataTable, Td } from "@/components/ui/table";

import { Prose } from "./prose";
import { commentOf, isRef, refName, typeText } from "./schema-text";

// The API reference's operations and schemas, rendered on the server from the OpenAPI document
// (lib/api/v1/document.ts): plain HTML, no script (docs/architecture.md "The API").

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

export interface Operation {
  method: string;
  path: string;
  op: oas31.OperationObject;
}

const preClass = "rounded-md bg-slate-50 p-3 font-mono text-xs leading-5 whitespace-pre-wrap break-words ring-1 ring-slate-200";

/** Every operation, in the document's order, grouped by its first tag (the tags' order first). */
export function operationsByTag(document: oas31.OpenAPIObject): { tag: string; description: string | undefined; operations: Operation[] }[] {
  const base = document.servers?.[0]?.url ?? "";
  const all: Operation[] = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = (item as oas31.PathItemObject)[method];
      return op ? [{ method: method.toUpperCase(), path: `${base}${path}`, op }] : [];
    }),
  );
  const tags = [...(document.tags ?? []).map((t) => t.name), ...all.flatMap((o) => o.op.tags ?? [])];
  return [...new Set(tags)]
    .map((tag) => ({
      tag,
      description: document.tags?.find((t) => t.name === tag)?.description,
      operations: all.filter((o) => (o.op.tags?.[0] ?? "") === tag),
    }))
    .filter((group) => group.operations.length > 0);
}

/** The scope a key needs: the operation's security requirement. */
function scopeOf(op: oas31.OperationObject): string | null {
  for (const requirement of op.security ?? []) for (const scopes of Object.values(requirement)) if (scopes[0]) return scopes[0];
  return null;
}

/** The operation's anchor: its operationId, or its method and path. */
export const operationAnchor = ({ method, path, op }: Operation) => `op-${op.operationId ?? `${method}${path}`.replace(/[^A-Za-z0-9]+/g, "-")}`;
export const schemaAnchor = (name: string) => `schema-${name}`;

function SchemaLink({ schema }: { schema: oas31.SchemaObject | oas31.ReferenceObject | undefined }) {
  if (!schema) return <>—</>;
  if (isRef(schema)) {
    const name = refName(schema.$ref);
    return (
      <a href={`#${schemaAnchor(name)}`} className="font-mono text-brand-700 underline">
        {name}
      </a>
    );
  }
  return <code className="text-xs break-words">{typeText(schema).replace(/\s+/g, " ")}</code>;
}

/** The `data` of a success envelope, or the whole schema of an error's (the Error schema). */
function answerSchema(response: oas31.ResponseObject | oas31.ReferenceObject): oas31.SchemaObject | oas31.ReferenceObject | undefined {
  if (isRef(response)) return response;
  const schema = response.content?.["application/json"]?.schema;
  if (!schema || isRef(schema)) return schema;
  return schema.properties?.data ?? schema;
}

function Parameters({ what, parameters }: { what: string; parameters: oas31.ParameterObject[] }) {
  return (
    <div className="space-y-1">
      <h4 className="font-medium">Parameters</h4>
      <DataTable label={`Parameters of ${what}`} caption={`Parameters of ${what}`} columns={["Name", "In", "Required", "Type", "Description"]}>
        {parameters.map((p) => (
          <tr key={`${p.in}-${p.name}`}>
            <Td>
              <code>{p.name}</code>
            </Td>
            <Td>{p.in}</Td>
            <Td>{p.required ? "yes" : "no"}</Td>
            <Td>
              <code className="text-xs">{typeText(p.schema).replace(/\s+/g, " ")}</code>
            </Td>
            <Td className="min-w-48">
              {[p.description, ...(p.schema && !isRef(p.schema) ? [commentOf({ ...p.schema, description: undefined })] : [])].filter(Boolean).join("; ") || "—"}
            </Td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

function OperationSection({ operation }: { operation: Operation }) {
  const { method, path, op } = operation;
  const what = `${method} ${path}`;
  const id = operationAnchor(operation);
  const scope = scopeOf(op);
  const parameters = (op.parameters ?? []).filter((p): p is oas31.ParameterObject => !isRef(p));
  const body = op.requestBody && !isRef(op.requestBody) ? op.requestBody.content["application/json"]?.schema : undefined;
  const responses = Object.entries(op.responses ?? {}) as [string, oas31.ResponseObject | oas31.ReferenceObject][];
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="space-y-3 border-t border-slate-200 pt-4" data-testid="api-operation">
      <h3 id={`${id}-heading`} className="flex flex-wrap items-baseline gap-2 text-lg font-semibold">
        <span className="rounded bg-slate-100 px-1.5 font-mono text-sm text-slate-900">{method}</span> <code className="break-all">{path}</code>
      </h3>
      {op.summary ? <p className="font-medium">{op.summary}</p> : null}
      {op.description ? (
        <p className="text-sm text-slate-700">
          <Prose text={op.description} />
        </p>
      ) : null}
      <p className="text-sm">
        Scope needed: {scope ? <code className="rounded bg-slate-100 px-1">{scope}</code> : "none"}
        {op.operationId ? (
          <>
            {" "}
            · Operation id: <code>{op.operationId}</code>
          </>
        ) : null}
      </p>
      {parameters.length > 0 ? <Parameters what={what} parameters={parameters} /> : null}
      {body ? (
        <div className="space-y-1">
          <h4 className="font-medium">
            Body (JSON){isRef(body) ? <>: </> : null}
            {isRef(body) ? <SchemaLink schema={body} /> : null}
          </h4>
          {isRef(body) ? null : <pre className={preClass}>{typeText(body)}</pre>}
        </div>
      ) : null}
      <div className="space-y-1">
        <h4 className="font-medium">Responses</h4>
        <DataTable label={`Responses of ${what}`} caption={`Responses of ${what}`} columns={[{ label: "Status", lead: true }, "Description", "data"]}>
          {responses.map(([status, response]) => (
            <tr key={status}>
              <Td className="font-mono">{status}</Td>
              <Td>{isRef(response) ? refName(response.$ref) : response.description}</Td>
              <Td>
                <SchemaLink schema={answerSchema(response)} />
              </Td>
            </tr>
          ))}
        </DataTable>
      </div>
    </section>
  );
}

export function ApiOperations({ document }: { document: oas31.OpenAPIObject }) {
  const groups = operationsByTag(document);
  return (
    <>
      <nav aria-labelledby="operations-contents" className="space-y-2">
        <h2 id="operations-contents" className="text-lg font-semibold">
          Operations
        </h2>
        <ul className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          {groups.flatMap((g) =>
            g.operations.map((o) => (
              <li key={`${o.method} ${o.path}`} className="min-w-0">
                <a href={`#${operationAnchor(o)}`} className="text-brand-700 underline">
                  <span className="font-mono">{o.method}</span> <span className="font-mono break-all">{o.path}</span>
                </a>{" "}
                <span className="text-slate-600">{o.op.summary}</span>
              </li>
            )),
          )}
        </ul>
      </nav>
      {groups.map((g) => (
        <section key={g.tag} aria-labelledby={`tag-${g.tag}`} className="space-y-4">
          <h2 id={`tag-${g.tag}`} className="text-xl font-semibold">
            {g.tag}
          </h2>
          {g.description && g.description !== `${g.tag} operations` ? (
            <p className="text-sm text-slate-700">
              <Prose text={g.description} />
            </p>
          ) : null}
          {g.operations.map((o) => (
            <OperationSection key={`${o.method} ${o.path}`} operation={o} />
          ))}
        </section>
      ))}
    </>
  );
}

export function ApiSchemas({ document }: { document: oas31.OpenAPIObject }) {
  const schemas = Object.entries(document.components?.schemas ?? {});
  if (schemas.length === 0) return null;
  return (
    <section aria-labelledby="schemas" className="space-y-4">
      <h2 id="schemas" className="text-xl font-semibold">
        Schemas
      </h2>
      <p className="text-sm text-slate-700">
        Each is written as a type: <code>name?:</code> may be missing, <code>a | b</code> is either, <code>T[]</code> a list, and <code>{"//"}</code> explains.
      </p>
      {schemas.map(([name, schema]) => (
        <section key={name} id={schemaAnchor(name)} aria-labelledby={`${schemaAnchor(name)}-heading`} className="space-y-1">
          <h3 id={`${schemaAnchor(name)}-heading`} className="font-mono text-base font-semibold">
            {name}
          </h3>
          {!isRef(schema) && schema.description ? (
            <p className="text-sm text-slate-700">
              <Prose text={schema.description} />
            </p>
          ) : null}
          <pre className={preClass}>{typeText(schema)}</pre>
        </section>
      ))}
    </section>
  );
}
