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

export async function renderNotificationEmail(props: NotificationEmailProps): Promise<RenderedEmail> {
  const element = createElement(NotificationEmail, props);
  return { subject: props.title, html: await render(element), text: await render(element, { plainText: true }) };
}

export async function renderDigestEmail(props: DigestEmailProps): Promise<RenderedEmail> {
  const element = createElement(DigestEmail, props);
  return { subject: `Fundboard daily digest: ${props.dayLabel}`, html: await render(element), text: await render(element, { plainText: true }) };
}
