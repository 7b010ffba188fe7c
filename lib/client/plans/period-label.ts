// A period key as people read it: "2026-11" is "November 2026", "2026-Q4" is "Q4 2026 (Oct–Dec)", "2026-W48" is
// "Week 48, 2026". Browser-safe; the key itself stays in URLs, the API and CSVs.

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"] as const;
const QUARTERS = ["Jan–Mar", "Apr–Jun", "Jul–Sep", "Oct–Dec"] as const;

export function periodLabel(key: string): string {
  const month = /^(\d{4})-(\d{2})$/.exec(key);
  if (month) {
    const name = MONTHS[Number(month[2]) - 1];
    return name ? `${name} ${month[1]}` : key;
  }
  const quarter = /^(\d{4})-Q([1-4])$/.exec(key);
  if (quarter) return `Q${quarter[2]} ${quarter[1]} (${QUARTERS[Number(quarter[2]) - 1]})`;
  const week = /^(\d{4})-W(\d{2})$/.exec(key);
  if (week) return `Week ${Number(week[2])}, ${week[1]}`;
  return key;
}
