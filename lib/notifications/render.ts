import "server-only";

import { render } from "@react-email/render";
import { createElement } from "react";

import { DigestEmail, type DigestEmailProps } from "./emails/digest-email";
import { NotificationEmail, type NotificationEmailProps } from "./emails/notification-email";

// Each template rendered twice from one component: HTML and plain text (docs/architecture.md "Notifications").

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** Renders kept by their props: one event's e-mail to five people is the same e-mail (a few ms of rendering each). */
const RECENT_MAX = 200;
const recent = new Map<string, Promise<RenderedEmail>>();

export function renderNotificationEmail(props: NotificationEmailProps): Promise<RenderedEmail> {
  const key = JSON.stringify(props);
  const kept = recent.get(key);
  if (kept) return kept;
  const element = createElement(NotificationEmail, props);
  const rendered = (async () => ({ subject: props.title, html: await render(element), text: await render(element, { plainText: true }) }))();
  recent.set(key, rendered);
  // A failed render is not kept; the oldest goes once the map is full (a Map iterates in insertion order).
  rendered.catch(() => recent.delete(key));
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value ?? key);
  return rendered;
}

export async function renderDigestEmail(props: DigestEmailProps): Promise<RenderedEmail> {
  const element = createElement(DigestEmail, props);
  return { subject: `Fundboard daily digest: ${props.dayLabel}`, html: await render(element), text: await render(element, { plainText: true }) };
}
