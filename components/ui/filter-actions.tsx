import { Button } from "./button";
import { TextLink } from "./text-link";

// The end of a list's filter form: its submit button and, while anything filters, the way back to the whole list.

export function FilterActions({ submitLabel, clearHref }: { submitLabel: string; clearHref: string | null }) {
  return (
    <div className="flex items-center gap-3">
      <Button type="submit">{submitLabel}</Button>
      {clearHref ? (
        <TextLink href={clearHref} className="text-sm">
          Clear filters
        </TextLink>
      ) : null}
    </div>
  );
}
