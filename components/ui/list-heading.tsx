import { buttonClasses } from "./button";

// A list's heading with its download: the CSV of the whole filter in view (paging ignored), named by the server.

export function ListHeading({ title, csvHref }: { title: string; csvHref: string }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <h2 className="text-lg font-semibold">{title}</h2>
      <a href={csvHref} download className={buttonClasses("secondary")}>
        Download CSV
      </a>
    </div>
  );
}
