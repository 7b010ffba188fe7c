import { Body, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";

// The daily digest (docs/architecture.md "Notifications"): yesterday's line of the day book in the dashboard's time
// zone, with the day book's words (paid, fees, settled: collected is the settled amount after fees, docs/decisions.md),
// the open exceptions, the declines, the top payers and the notifications kept for the digest.

export interface DigestEmailProps {
  businessName: string;
  /** The day it covers, as people read it ("Friday, 27 November 2026"). */
  dayLabel: string;
  /** The day book's figures of the day: asked, paid (what payers sent), fees, settled (collected), unexplained. */
  book: { asked: string; paid: string; fees: string; settled: string; unexplained: string | null };
  openExceptions: number;
  declines: number;
  /** By what was collected from them (settled, after fees). */
  topPayers: { name: string; tag: string; collected: string }[];
  items: { title: string; url: string }[];
  url: string;
  preferencesUrl: string;
}

const body = { backgroundColor: "#f8fafc", fontFamily: "Helvetica, Arial, sans-serif", color: "#0f172a" };
const box = { backgroundColor: "#ffffff", border: "1px solid #e2e8f0", borderRadius: "8px", padding: "24px", maxWidth: "560px" };
const line = { fontSize: "14px", margin: "4px 0" };

export function DigestEmail(p: DigestEmailProps) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{`${p.dayLabel}: collected ${p.book.settled} after fees, ${p.openExceptions} open exceptions`}</Preview>
      <Body style={body}>
        <Container style={box}>
          <Text style={{ fontSize: "12px", color: "#475569", margin: 0 }}>{p.businessName} · daily digest</Text>
          <Heading as="h1" style={{ fontSize: "20px", margin: "12px 0" }}>
            {p.dayLabel}
          </Heading>
          <Section>
            <Text style={line}>Asked: {p.book.asked}</Text>
            <Text style={line}>Paid: {p.book.paid}</Text>
            <Text style={line}>Fees: {p.book.fees}</Text>
            <Text style={line}>Settled (collected): {p.book.settled}</Text>
            <Text style={line}>Unexplained: {p.book.unexplained ?? "no balance readings that day"}</Text>
          </Section>
          <Hr />
          <Text style={line}>Open exceptions: {p.openExceptions}</Text>
          <Text style={line}>Declines: {p.declines}</Text>
          {p.topPayers.length > 0 ? (
            <Section>
              <Text style={{ ...line, fontWeight: "bold" }}>Top payers (collected after fees)</Text>
              {p.topPayers.map((payer) => (
                <Text key={payer.tag} style={line}>
                  {payer.name} (@{payer.tag}): {payer.collected}
                </Text>
              ))}
            </Section>
          ) : null}
          {p.items.length > 0 ? (
            <Section>
              <Hr />
              <Text style={{ ...line, fontWeight: "bold" }}>Also</Text>
              {p.items.map((item, i) => (
                <Text key={i} style={line}>
                  <Link href={item.url}>{item.title}</Link>
                </Text>
              ))}
            </Section>
          ) : null}
          <Text style={{ fontSize: "14px", margin: "16px 0" }}>
            <Link href={p.url}>Open the day book</Link>
          </Text>
          <Hr />
          <Text style={{ fontSize: "12px", color: "#475569" }}>
            <Link href={p.preferencesUrl}>Change your notification settings</Link>.
          </Text>
        </Container>
      </Body>
    </Html>
  );
}
