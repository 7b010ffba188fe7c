import type { ReactNode } from "react";

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
