import { Body, Container, Head, Heading, Hr, Html, Link, Preview, Text } from "@react-email/components";

// One notification as an e-mail (docs/architecture.md "Notifications"): written once, rendered to HTML and plain text.
// It shows only what the notification says (lib/notifications/content.ts picks those fields), never a payer's contacts.

export interface NotificationEmailProps {
  businessName: string;
  title: string;
  lines: string[];
  url: string;
  preferencesUrl: string;
}

const body = { backgroundColor: "#f8fafc", fontFamily: "Helvetica, Arial, sans-serif", color: "#0f172a" };
const box = { backgroundColor: "#ffffff", border: "1px solid #e2e8f0", borderRadius: "8px", padding: "24px", maxWidth: "560px" };

export function NotificationEmail({ businessName, title, lines, url, preferencesUrl }: NotificationEmailProps) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{title}</Preview>
      <Body style={body}>
        <Container style={box}>
          <Text style={{ fontSize: "12px", color: "#475569", margin: 0 }}>{businessName}</Text>
          <Heading as="h1" style={{ fontSize: "20px", margin: "12px 0" }}>
            {title}
          </Heading>
          {lines.map((line, i) => (
            <Text key={i} style={{ fontSize: "14px", margin: "4px 0" }}>
              {line}
            </Text>
          ))}
          <Text style={{ fontSize: "14px", margin: "16px 0" }}>
            <Link href={url}>Open it in Fundboard</Link>
          </Text>
          <Hr />
          <Text style={{ fontSize: "12px", color: "#475569" }}>
            You get this because of your notification settings. <Link href={preferencesUrl}>Change them</Link>.
          </Text>
        </Container>
      </Body>
    </Html>
  );
}
