import { create } from 'zustand';
import type { ApiError } from '../../../main/contract/result';
import { useRouter, type View } from './router';

export interface Toast {
  id: number;
  tone: 'error' | 'info' | 'success';
  title: string;
  message: string;
  field?: string;
  /** The screen it was said on: a notice that is not an error shows only there (it never covers the next screen). */
  view: View;
}

interface ToastState {
  toasts: Toast[];
  push(toast: Omit<Toast, 'id' | 'view'>): void;
  dismiss(id: number): void;
}

let nextId = 1;
const MAX_TOASTS = 5;

export const useToasts = create<ToastState>((set) => ({
  toasts: [],
  push(toast) {
    const id = nextId++;
    const view = useRouter.getState().route.view;
    set((s) => ({ toasts: [...s.toasts.slice(-(MAX_TOASTS - 1)), { ...toast, id, view }] }));
    if (toast.tone !== 'error') setTimeout(() => useToasts.getState().dismiss(id), 4000);
  },
  dismiss(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
}));

/** The toasts to show on `view`: errors wherever they were said (they stay until dismissed), the others only there. */
export function toastsFor(toasts: readonly Toast[], view: View): Toast[] {
  return toasts.filter((t) => t.tone === 'error' || t.view === view);
}

/** A command's error, as a toast that names the command's purpose, the message and the field. */
export function toastApiError(command: string, error: ApiError): void {
  // A token the server no longer takes is said once, by the banner above every screen (TokenBanner).
  if (error.code === 'unauthorized') return;
  useToasts.getState().push({
    tone: 'error',
    // A conflict is a refusal for the state things are in (nothing to retry, a name taken), not a failure.
    title: error.code === 'conflict' ? `${commandTitle(command)}: not done` : `${commandTitle(command)} failed`,
    message: error.message,
    ...(error.field ? { field: error.field } : {}),
  });
}

/** `retryNow` → `Retry now` */
function commandTitle(command: string): string {
  const words = command.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
