import { ApiIntro } from "@/components/api-reference/api-intro";
import { ApiOperations, ApiSchemas } from "@/components/api-reference/api-reference";
import { TextLink } from "@/components/ui/text-link";
import { openApiDocument } from "@/lib/api/v1/document";
import { requirePageStaff } from "@/lib/auth/page-guard";

export const metadata = { title: "API reference" };

// The /api/v1 reference, rendered here from the same OpenAPI document /api/v1/openapi.json serves (docs/architecture.md
// "The API"): plain server-rendered HTML, no outside script (the CSP allows none). Any signed-in person may read it.
export default async function ApiReferencePage() {
  await requirePageStaff("reports.read", "/developers/api");
  const document = openApiDocument();
  const base = document.servers?.[0]?.url ?? "/api/v1";
  return (
    <div className="max-w-5xl space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">API reference</h1>
        <p className="text-sm text-slate-700">
          {document.info.title} {document.info.version}: what your own systems can ask of Fundboard, and what it answers. Keys are made on{" "}
          <TextLink href="/developers/api-keys">API keys</TextLink>; changes can also be sent to you as they happen, from{" "}
          <TextLink href="/developers/webhooks">Outgoing webhooks</TextLink> (both for admins).
        </p>
      </div>
      <ApiIntro document={document} base={base} />
      <ApiOperations document={document} />
      <ApiSchemas document={document} />
    </div>
  );
}
