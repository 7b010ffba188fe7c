import type { HTMLAttributes } from "react";

const CARD = "rounded-lg border border-slate-200 bg-white";

/** A white bordered panel's classes, plus `extra` (padding, layout); for elements Card does not cover, such as forms. */
export function cardClasses(extra?: string): string {
  return extra ? `${CARD} ${extra}` : CARD;
}

type CardTag = "div" | "section" | "dl" | "ul" | "li" | "p";

/** A white bordered panel; `as` picks the element so lists and definition lists keep their semantics. */
export function Card({ as: Tag = "div", className, ...rest }: HTMLAttributes<HTMLElement> & { as?: CardTag }) {
  return <Tag className={cardClasses(className)} {...rest} />;
}
