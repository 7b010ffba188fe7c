// Long text in a table cell (descriptions, e-mails): one line, cut with an ellipsis, whole in the tooltip, so a
// tag or an e-mail address is never split across lines.

export function ClippedText({ text, className = "max-w-xs" }: { text: string | null | undefined; className?: string }) {
  if (!text) return <div>—</div>;
  return (
    <div className={`truncate ${className}`} title={text}>
      {text}
    </div>
  );
}
