import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import type { EndpointView } from "@/lib/client/outbound/schemas";

import { EndpointCard } from "./endpoint-card";

const ENDPOINT: EndpointView = {
  id: "0b4f3c1e-1111-4222-8333-444455556666",
  url: "https://erp.example.test/hooks",
  description: "",
  eventTypes: "all",
  enabled: true,
  disabledReason: null,
  createdAt: "2026-11-28T10:00:00.000Z",
  secretHint: "whsec_…abcd",
  previousSecretUntil: null,
  lastSuccessAt: null,
  failingSince: null,
};

function render(): string {
  const client = new QueryClient({ defaultOptions: { queries: { enabled: false, retry: false } } });
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(EndpointCard, { endpoint: ENDPOINT, onSecret: () => undefined })));
}

/** The opening tag of the element with this id. */
function tagWithId(html: string, id: string): string {
  const at = html.indexOf(`id="${id}"`);
  if (at < 0) throw new Error(`no element with id ${id}`);
  return html.slice(html.lastIndexOf("<", at), html.indexOf(">", at) + 1);
}

describe("an endpoint's card on the webhooks page", () => {
  it("lets the admin choose how long the old secret keeps signing after a rotation: a labelled 0–168 hour field, 24 at first", () => {
    const html = render();
    const id = `rotate-overlap-${ENDPOINT.id}`;
    // The label names the field (label for= its id), and the hint saying the range is tied to it.
    expect(html).toMatch(new RegExp(`<label for="${id}"[^>]*>Old secret keeps signing for \\(hours\\)</label>`));
    const input = tagWithId(html, id);
    expect(input).toMatch(/^<input /);
    expect(input).toContain('type="number"');
    expect(input).toContain('min="0"');
    expect(input).toContain('max="168"');
    expect(input).toContain('step="1"');
    expect(input).toContain('value="24"');
    expect(input).toContain(`aria-describedby="${id}-hint"`);
    expect(tagWithId(html, `${id}-hint`)).toMatch(/^<p /);
    // It is a form of its own, named for the endpoint, submitted by the "Rotate secret" button.
    expect(html).toMatch(new RegExp(`<form[^>]*aria-label="Rotate the signing secret of ${ENDPOINT.url.replace(/\./g, "\\.")}"`));
    expect(html).toMatch(/<button type="submit"[^>]*>Rotate secret<\/button>/);
  });
});
