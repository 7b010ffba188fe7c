// The dues board as a download (GET /api/plans/:id/board?format=csv): one row per member (tag, name, amount, owing,
// then each period's outcome), then one row each for the periods' asked, collected and collection rate.
import { CELL_WORDS, type BoardMember, type BoardView } from "@/lib/client/plans/view";
import { csvTable, type CsvColumn } from "@/lib/csv/table";

type Line = Pick<BoardMember, "tag" | "name" | "amount" | "owing"> & { byPeriod: Map<string, string> };

export function boardCsv(board: BoardView): string {
  const columns: CsvColumn<Line>[] = [
    ["tag", (l) => l.tag],
    ["name", (l) => l.name],
    ["amount", (l) => l.amount],
    ["owing", (l) => l.owing],
    ...board.periods.map((p): CsvColumn<Line> => [p, (l) => l.byPeriod.get(p) ?? null]),
  ];
  const members: Line[] = board.members.map((m) => ({ ...m, byPeriod: new Map(m.cells.map((c) => [c.period, CELL_WORDS[c.status]])) }));
  const total = (label: string, cell: (t: BoardView["totals"][number]) => string): Line => ({
    tag: label,
    name: null,
    amount: null,
    owing: "",
    byPeriod: new Map(board.totals.map((t) => [t.period, cell(t)])),
  });
  return csvTable(columns, [
    ...members,
    total("Total asked", (t) => t.asked),
    total("Total collected after fees", (t) => t.collected),
    total("Collection rate", (t) => (t.rate === null ? "" : `${(t.rate * 100).toFixed(1)}%`)),
  ]);
}
