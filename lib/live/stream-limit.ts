import "server-only";
import { processSingleton } from "@/lib/util/process-singleton";

/**
 * At most this many open /api/live streams per account on an instance, however many times it signed in; one
 * more closes the oldest. Each stream holds this instance's listener and timer, so the cap is per instance.
 */
export const MAX_STREAMS_PER_ACCOUNT = 10;

type Close = () => void;

function registry(): Map<string, Close[]> {
  return processSingleton("live-streams", () => new Map<string, Close[]>());
}

/**
 * Registers an open stream of `account`; when that makes one too many, the oldest is closed (each
 * open stream holds a bus listener and a timer, so an account must not hold them without bound).
 * Returns the function that forgets this stream once it has closed.
 */
export function admitStream(account: string, close: Close, max = MAX_STREAMS_PER_ACCOUNT): () => void {
  const streams = registry();
  const open = streams.get(account) ?? [];
  open.push(close);
  streams.set(account, open);
  while (open.length > max) {
    const oldest = open.shift();
    oldest?.();
  }
  return () => {
    const current = streams.get(account);
    if (!current) return;
    const index = current.indexOf(close);
    if (index >= 0) current.splice(index, 1);
    if (current.length === 0) streams.delete(account);
  };
}

/** Closes every open stream on this instance (shutting down): browsers reconnect to another instance. */
export function closeAllStreams(): number {
  const streams = registry();
  const closes = [...streams.values()].flat();
  for (const close of closes) close();
  streams.clear();
  return closes.length;
}

/** Open streams of an account on this instance. */
export function openStreamCount(account: string): number {
  return registry().get(account)?.length ?? 0;
}
