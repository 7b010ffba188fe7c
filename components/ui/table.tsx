import { Children, cloneElement, isValidElement, type ReactNode, type TdHTMLAttributes } from "react";

import { cardClasses } from "./card";

/**
 * A column: its header, `align: "right"` for numbers, `lead: true` for what a phone shows first (the amount, the
 * status): below the `sm` breakpoint each row is a card of labelled lines, lead lines on top (app/globals.css).
 */
export type Column = string | { label: string; align?: "right"; lead?: boolean };

function columnOf(column: Column): { label: string; align?: "right"; lead?: boolean } {
  return typeof column === "string" ? { label: column } : column;
}

/**
 * Each row's cells get their column's header as `data-label` (and `data-lead`), which a phone's stacked card shows
 * beside the value: the list components write plain rows and cells, and every table stacks the same way.
 */
function labelCells(rows: ReactNode, columns: readonly Column[]): ReactNode {
  return Children.map(rows, (row) => {
    if (!isValidElement<{ children?: ReactNode }>(row)) return row;
    let index = 0;
    const cells = Children.map(row.props.children, (cell) => {
      if (!isValidElement<Record<string, unknown>>(cell)) return cell;
      const column = columns[index];
      index += 1;
      // A cell that names its own label (a row spanning the columns, say) keeps it.
      if (!column || cell.props["data-label"] !== undefined) return cell;
      const { label, lead } = columnOf(column);
      return cloneElement(cell, { "data-label": label, ...(lead ? { "data-lead": "" } : {}) });
    });
    return cloneElement(row, undefined, cells);
  });
}

/**
 * A data table in a bordered box, with its column headers and, when `empty` is given, one row saying
 * so. The box is a named region and focusable, so keyboard users can scroll a wide table sideways; on a
 * phone it does not scroll: each row stacks into a card (`stacked-table` in app/globals.css).
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
    // Positioned, so a cell's sr-only words (absolutely positioned) scroll with the table, not past the page's edge.
    <div className={cardClasses("relative overflow-x-auto")} tabIndex={0} role="region" aria-label={label}>
      <table className="stacked-table min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            {columns.map((column) => {
              const { label: text, align } = columnOf(column);
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
            labelCells(children, columns)
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
