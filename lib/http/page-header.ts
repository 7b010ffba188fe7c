/** The page a request asked for, set by proxy.ts on every page request (a client's own copy is overwritten). */
export const PAGE_HEADER = "x-fundboard-page";
