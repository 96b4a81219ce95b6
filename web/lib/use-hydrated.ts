import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False in the server render and while it hydrates, true once React owns the page. Forms use it to
 * keep their submit button off until their handler is attached: a click before that would make
 * the browser submit the form itself (credentials in a URL).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
