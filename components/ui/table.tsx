import type { ReactNode, TdHTMLAttributes } from "react";

import { cardClasses } from "./card";

export type Column = string | { label: string; align: "right" };

/**
 * A data table in a bordered box, with its column headers and, when `empty` is given, one row saying
 * so. The box is a named region and focusable, so keyboard users can scroll a wide table sideways.
 */
export function DataTable({
  label,
  caption,
  columns,
  empty,
  children,
}: {
  label: string;
  caption: string;
  columns: readonly Column[];
  empty?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className={cardClasses("overflow-x-auto")} tabIndex={0} role="region" aria-label={label}>
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            {columns.map((column) => {
              const { label: text, align } = typeof column === "string" ? { label: column, align: undefined } : column;
              return (
                <th key={text} scope="col" className={align === "right" ? "px-3 py-2 text-right font-medium" : "px-3 py-2 font-medium"}>
                  {text}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {empty !== undefined && empty !== null ? (
            <tr>
              <td colSpan={columns.length} className="px-3 py-6 text-center text-slate-600">
                {empty}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A body cell with the table's padding; `className` adds to it. */
export function Td({ className, ...rest }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={className ? `px-3 py-2 ${className}` : "px-3 py-2"} {...rest} />;
}
