"use client";

import type { ReactNode } from "react";

import { useHydrated } from "@/lib/client/forms/hydrated";

/**
 * A form's fields, disabled until the page's scripts have taken them over: react-hook-form sets each field to its
 * default as it hydrates, so a choice or a typed value made in the server's HTML before that would be undone and the
 * old value sent (docs/architecture.md "Forms"). Without `className` it is `display: contents`, so a flex or grid form
 * lays out the fields as if it held them; a form spacing its children (`space-y-*`) passes that spacing here.
 */
export function ReadyFieldset({ children, className }: { children: ReactNode; className?: string }) {
  const hydrated = useHydrated();
  return (
    <fieldset disabled={!hydrated} className={className ? `m-0 min-w-0 border-0 p-0 ${className}` : "contents"}>
      {children}
    </fieldset>
  );
}
