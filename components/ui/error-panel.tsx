import type { HTMLAttributes, ReactNode } from "react";

/** What failed and what to do; never a stack trace. */
export function ErrorPanel({ title, message, action }: { title: string; message: string; action?: ReactNode }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
      <h2 className="font-semibold">{title}</h2>
      <p className="mt-1 text-sm">{message}</p>
      {action ? <div className="mt-3">{action}</div> : null}
    </div>
  );
}

/** A short red note inside a form or panel (a refusal, a failure's reason); the caller chooses its role. */
export function ErrorNote({ as: Tag = "p", className, ...rest }: HTMLAttributes<HTMLElement> & { as?: "p" | "div" }) {
  const base = "rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900";
  return <Tag className={className ? `${base} ${className}` : base} {...rest} />;
}
