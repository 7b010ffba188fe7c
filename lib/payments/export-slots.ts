import "server-only";

import { processSingleton } from "@/lib/util/process-singleton";

// Exports under way in this process: one a person and a few an instance, so no burst of them can hold the server's
// memory or its database (docs/decisions.md, "Exports streamed, a few at a time").

/** A person's exports at once: a second click waits for the first file. */
const PER_PERSON = 1;
/** An instance's exports at once: each streams a page of 1,000 payments at a time. */
const PER_INSTANCE = 3;

interface Slots {
  total: number;
  byPerson: Map<string, number>;
}

const slots = () => processSingleton("export-slots", (): Slots => ({ total: 0, byPerson: new Map() }));

/** A slot for `personId`'s export and its release (idempotent), or null when the person or the instance has none free. */
export function takeExportSlot(personId: string): (() => void) | null {
  const s = slots();
  const mine = s.byPerson.get(personId) ?? 0;
  if (mine >= PER_PERSON || s.total >= PER_INSTANCE) return null;
  s.total += 1;
  s.byPerson.set(personId, mine + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    s.total -= 1;
    const left = (s.byPerson.get(personId) ?? 1) - 1;
    if (left > 0) s.byPerson.set(personId, left);
    else s.byPerson.delete(personId);
  };
}
