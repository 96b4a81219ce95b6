import * as ToastPrimitive from "@radix-ui/react-toast";
import { useToasts } from "./toast-store";

export { type ToastInput, toast, useToasts } from "./toast-store";

export function Toaster() {
  const current = useToasts((s) => s.current);
  const dismiss = useToasts((s) => s.dismiss);
  return (
    <ToastPrimitive.Provider duration={5000} swipeDirection="right" swipeThreshold={50}>
      {current && (
        <ToastPrimitive.Root
          key={current.id}
          className={`di-toast ${current.variant === "destructive" ? "di-toast-destructive" : ""}`}
          onOpenChange={(open) => !open && dismiss()}
          data-testid="toast"
        >
          <ToastPrimitive.Title className="di-toast-title">{current.title}</ToastPrimitive.Title>
          {current.description && (
            <ToastPrimitive.Description className="di-toast-description">{current.description}</ToastPrimitive.Description>
          )}
          <ToastPrimitive.Close className="di-toast-close" aria-label="Close">
            ×
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      )}
      <ToastPrimitive.Viewport className="di-toast-viewport" hotkey={["F8"]} />
    </ToastPrimitive.Provider>
  );
}
