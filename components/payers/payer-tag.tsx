import { OneLine } from "@/components/ui/one-line";
import { TextLink } from "@/components/ui/text-link";
import { payerHref } from "@/lib/client/payers/tag";

/** A tag as the dashboard shows it: "@tag" whole on one line, linking to its payer (docs/architecture.md "Payers and chasing": every tag links to its payer). */
export function PayerTag({ tag, className }: { tag: string; className?: string }) {
  const text = `@${tag.trim().replace(/^@/, "")}`;
  return (
    // A 24 px line and an inline-block link: tall enough to tap (WCAG 2.2 target size), also under another link.
    <OneLine text={text} className={className ? `leading-6 ${className}` : "leading-6"}>
      <TextLink href={payerHref(tag)} hoverUnderline className="inline-block" data-testid="payer-tag">
        {text}
      </TextLink>
    </OneLine>
  );
}
