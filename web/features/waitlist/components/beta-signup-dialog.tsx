import { cloneElement, lazy, type ReactElement, type Ref, Suspense, useRef, useState } from "react";
import type { WaitlistSource } from "../api";

const loadContent = () => import("./beta-signup-dialog-content");
const BetaSignupDialogContent = lazy(loadContent);

export interface BetaSignupDialogProps {
  source: WaitlistSource;
  /** The button that opens the dialog; it keeps its own look and label. */
  trigger: ReactElement<{ ref?: Ref<HTMLElement> }>;
  title?: string;
  description?: string;
  submitLabel?: string;
  /** Spec §4: 'Joining...' on the pricing and features pages. */
  pendingLabel?: string;
}

/**
 * The spec's header, pricing and features buttons post a fixed placeholder address; here they
 * ask the visitor for a real one, and keep their own source tag for attribution.
 *
 * The button is drawn at once, as a Radix Dialog.Trigger would draw it; the dialog (Radix Dialog,
 * focus trap, scroll lock) loads when it is first pressed, or hovered or focused just before, so
 * the marketing pages do not download it with the page.
 */
export function BetaSignupDialog({
  source,
  trigger,
  title = "Crash the Beta",
  description = "Drop your e-mail and we'll save you a seat before the doors open.",
  submitLabel = "Join Beta - Free",
  pendingLabel = "Joining...",
}: BetaSignupDialogProps) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const button = useRef<HTMLElement>(null);
  const prefetch = () => void loadContent();

  return (
    <>
      {cloneElement(trigger, {
        ref: button,
        type: "button",
        "aria-haspopup": "dialog",
        "aria-expanded": open,
        "data-state": open ? "open" : "closed",
        onPointerEnter: prefetch,
        onFocus: prefetch,
        onClick: () => {
          setUsed(true);
          setOpen(true);
        },
      } as Record<string, unknown>)}
      {used && (
        <Suspense fallback={null}>
          <BetaSignupDialogContent
            source={source}
            title={title}
            description={description}
            submitLabel={submitLabel}
            pendingLabel={pendingLabel}
            open={open}
            onOpenChange={setOpen}
            trigger={button}
          />
        </Suspense>
      )}
    </>
  );
}
