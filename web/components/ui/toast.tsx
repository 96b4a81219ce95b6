import * as ToastPrimitive from "@radix-ui/react-toast";
import { create } from "zustand";

export interface ToastInput {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
}

interface ToastState {
  current: (ToastInput & { id: number }) | null;
  show(t: ToastInput): void;
  dismiss(): void;
}

let seq = 0;
/** Spec §9: one toast at a time; a new one replaces the old. */
export const useToasts = create<ToastState>((set) => ({
  current: null,
  show: (t) => set({ current: { ...t, id: ++seq } }),
  dismiss: () => set({ current: null }),
}));

export const toast = (t: ToastInput) => useToasts.getState().show(t);

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
