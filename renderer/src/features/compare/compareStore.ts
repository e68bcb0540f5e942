/**
 * Compare: one attempt picked ("pinned"), then a second one chosen, from the same message or another;
 * or a message's webhooks side by side in one click. The pair is shown by features/compare.
 */
import { create } from 'zustand';
import type { ComparedAttempt } from '../../lib/compare';

interface CompareState {
  /** The attempt picked first, kept while the user goes to find the other one. */
  pinned: ComparedAttempt | null;
  /** What is shown: left, right, and every attempt either side may switch to. */
  open: { left: ComparedAttempt; right: ComparedAttempt; candidates: ComparedAttempt[] } | null;
  pin(attempt: ComparedAttempt | null): void;
  show(left: ComparedAttempt, right: ComparedAttempt, candidates: ComparedAttempt[]): void;
  choose(side: 'left' | 'right', attemptId: number): void;
  close(): void;
}

export const useCompare = create<CompareState>((set, get) => ({
  pinned: null,
  open: null,
  pin: (pinned) => set({ pinned }),
  show(left, right, candidates) {
    const all = [...candidates];
    for (const c of [left, right]) if (!all.some((x) => x.attempt.id === c.attempt.id)) all.unshift(c);
    set({ open: { left, right, candidates: all }, pinned: null });
  },
  choose(side, attemptId) {
    const open = get().open;
    const next = open?.candidates.find((c) => c.attempt.id === attemptId);
    if (open && next) set({ open: { ...open, [side]: next } });
  },
  close: () => set({ open: null }),
}));
