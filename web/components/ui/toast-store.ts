// The toast queue, apart from the Radix viewport (./toast.tsx), so a page can raise a toast
// without loading the viewport until the first one shows (the marketing pages do that).
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
