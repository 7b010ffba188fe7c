import "server-only";

/** At most this many open /api/live streams per session on an instance; a sixth closes the oldest. */
export const MAX_STREAMS_PER_SESSION = 5;

type Close = () => void;

const KEY = Symbol.for("fundboard.live-streams");
type Holder = { [KEY]?: Map<string, Close[]> };

function registry(): Map<string, Close[]> {
  const g = globalThis as Holder;
  g[KEY] ??= new Map();
  return g[KEY];
}

/**
 * Registers an open stream of `session`; when that makes one too many, the oldest is closed (each
 * open stream holds a bus listener and a timer, so a session must not hold them without bound).
 * Returns the function that forgets this stream once it has closed.
 */
export function admitStream(session: string, close: Close, max = MAX_STREAMS_PER_SESSION): () => void {
  const streams = registry();
  const open = streams.get(session) ?? [];
  open.push(close);
  streams.set(session, open);
  while (open.length > max) {
    const oldest = open.shift();
    oldest?.();
  }
  return () => {
    const current = streams.get(session);
    if (!current) return;
    const index = current.indexOf(close);
    if (index >= 0) current.splice(index, 1);
    if (current.length === 0) streams.delete(session);
  };
}

/** Open streams of a session on this instance. */
export function openStreamCount(session: string): number {
  return registry().get(session)?.length ?? 0;
}
