import type { oas31 } from "zod-openapi";

import { TextLink } from "@/components/ui/text-link";

import { Prose } from "./prose";
import { isRef } from "./schema-text";

// What every /api/v1 call shares, above the operations: the key, Idempotency-Key, the rate limits and the envelope.
// The numbers are the key's defaults (lib/client/api-keys/schemas.ts) and the guard's rules (lib/api-keys/guard.ts).

const codeBlock = "rounded-md bg-slate-50 p-3 font-mono text-xs leading-5 whitespace-pre-wrap break-words ring-1 ring-slate-200";

/** The closed list of error codes, as the document's Error schema gives it. */
function errorCodes(document: oas31.OpenAPIObject): string[] {
  const error = document.components?.schemas?.Error;
  if (!error || isRef(error)) return [];
  const code = error.properties?.code;
  return code && !isRef(code) ? (code.enum ?? []).map(String) : [];
}

export function ApiIntro({ document, base }: { document: oas31.OpenAPIObject; base: string }) {
  const codes = errorCodes(document);
  return (
    <section aria-labelledby="using-the-api" className="space-y-4">
      <h2 id="using-the-api" className="text-xl font-semibold">
        Using the API
      </h2>
      {document.info.description ? (
        <p className="text-sm text-slate-700">
          <Prose text={document.info.description} />
        </p>
      ) : null}
      <div className="space-y-2">
        <h3 className="font-semibold">Your key</h3>
        <p className="text-sm text-slate-700">
          Every call under <code>{base}</code> sends an API key as the header <code>Authorization: Bearer fb_…</code>. An admin makes keys on{" "}
          <TextLink href="/developers/api-keys">API keys</TextLink>: <code>fb_test_…</code> keys work on a deployment running against the sandbox,{" "}
          <code>fb_live_…</code> keys against the real service. A missing, revoked or expired key is answered 401 (<code>unauthenticated</code>); a key without
          the operation&apos;s scope 403 (<code>forbidden</code>).
        </p>
        <pre className={codeBlock}>{`curl ${base}/balance \\\n  -H "Authorization: Bearer fb_test_…"`}</pre>
      </div>
      <div className="space-y-2">
        <h3 className="font-semibold">Idempotency-Key on every POST</h3>
        <p className="text-sm text-slate-700">
          Send an <code>Idempotency-Key</code> header (a UUID you make per operation) with every POST. A retry with the same key and body within 24 hours
          answers the first answer again (with <code>Idempotent-Replayed: true</code>) and does nothing twice. Without the header the answer is 400 (
          <code>idempotency_key_missing</code>); the same key with another body 422 (<code>idempotency_key_reused</code>); the same key while its first request
          is still being answered 409 (<code>idempotency_key_in_flight</code>).
        </p>
      </div>
      <div className="space-y-2">
        <h3 className="font-semibold">Rate limits</h3>
        <p className="text-sm text-slate-700">
          Each key may make 600 reads (GET) and 60 writes (POST, PATCH) a minute by default. Every answer carries the <code>RateLimit-Policy</code> and{" "}
          <code>RateLimit</code> headers (the limit, what is left of it and the seconds until it resets). Past the limit the answer is 429 (
          <code>rate_limited</code>) with <code>Retry-After</code> in seconds. When the payment service itself has no room the answer is 503 (
          <code>budget_exhausted</code>), also with <code>Retry-After</code>.
        </p>
      </div>
      <div className="space-y-2">
        <h3 className="font-semibold">Answers</h3>
        <p className="text-sm text-slate-700">
          Every answer is one JSON envelope: <code>status</code> (true or false), <code>message</code> (a sentence for people), <code>data</code>, and on an
          error <code>code</code>, for programs, from a closed list{codes.length > 0 ? ":" : "."}
        </p>
        {codes.length > 0 ? (
          <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs" aria-label="Error codes">
            {codes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
        ) : null}
        <pre className={codeBlock}>
          {`{ "status": true, "message": "OK", "data": { … } }\n{ "status": false, "message": "This API key was revoked; ask an admin for a new one.", "code": "unauthenticated", "data": {} }`}
        </pre>
      </div>
      <p className="text-sm text-slate-700">
        The same reference as an OpenAPI 3.1 document, for code generators and API tools:{" "}
        <a href={`${base}/openapi.json`} className="text-brand-700 underline">
          {base}/openapi.json
        </a>
        .
      </p>
    </section>
  );
}
