import { lazy, Suspense } from "react";
import { useToasts } from "#web/components/ui/toast-store";

const Toaster = lazy(() => import("#web/components/ui/toast").then((m) => ({ default: m.Toaster })));

/**
 * The toast viewport, loaded with the first toast rather than with the page: a marketing visitor
 * who never joins the waitlist never downloads it.
 */
export function LazyToaster() {
  const needed = useToasts((s) => s.current !== null);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
