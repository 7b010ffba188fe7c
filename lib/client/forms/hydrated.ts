import { useSyncExternalStore } from "react";

// A form's fields are usable once React owns them: react-hook-form sets each registered field to its default value
// when it hydrates, so a choice made in the server-rendered HTML before that would be silently undone and the old value
// saved (docs/architecture.md "Forms").

const never = () => () => {};

/** False in the server's HTML and during hydration, true once the component runs in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
