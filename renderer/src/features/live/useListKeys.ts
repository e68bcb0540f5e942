/**
 * A message list with a detail pane beside it (Live, History): the cursor, opening the message under it
 * (its id in the route), and the keys: ↑/↓ or j/k move (the open pane follows, without filling the
 * history), Enter opens, Esc goes back one level (an open attempt to its message, the message to the list,
 * which gets the focus back), r retries the open message now.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { api } from '../../api/instance';
import { focusAttemptButton } from '../../lib/focusAttempt';
import { useDetail } from '../../stores/detail';
import { useRouter } from '../../stores/router';

/** Keys typed into a control belong to it, not to the list. */
export function typingOrOnControl(e: KeyboardEvent): boolean {
  const target = e.target as HTMLElement | null;
  return target?.closest('button, a, input, select, textarea, [contenteditable="true"], [role="switch"], [role="radio"], [role="tab"], [role="dialog"], .cm-editor') != null;
}

/** Options for a list key: not while typing in a control, and the browser's own use of the key is stopped. */
export const LIST_KEY_OPTIONS = { ignoreEventWhen: typingOrOnControl, preventDefault: true };

export function useListKeys(rows: readonly { id: number }[]) {
  const openId = useRouter((s) => s.route.messageId);
  const navigate = useRouter((s) => s.navigate);
  const openDetail = useDetail((s) => s.open);
  const [cursorId, setCursorId] = useState<number | null>(openId);
  const gridRef = useRef<HTMLDivElement | null>(null);

  useEffect(() => openDetail(openId), [openId, openDetail]);
  useEffect(() => {
    if (openId !== null) setCursorId(openId);
  }, [openId]);

  const open = useCallback((id: number | null, replace = false) => navigate({ messageId: id }, { replace }), [navigate]);
  /** Closes the open message; the list gets the focus (the pane's Close button, or what had it, is gone). */
  const close = useCallback(() => {
    open(null);
    gridRef.current?.focus();
  }, [open]);
  const onRowClick = useCallback(
    (id: number) => {
      setCursorId(id);
      open(id);
    },
    [open],
  );
  const move = (delta: number) => {
    if (!rows.length) return;
    const index = rows.findIndex((r) => r.id === cursorId);
    const next = rows[Math.max(0, Math.min(rows.length - 1, index < 0 ? 0 : index + delta))]!;
    setCursorId(next.id);
    if (openId !== null) open(next.id, true);
  };

  useHotkeys(['down', 'j'], () => move(1), LIST_KEY_OPTIONS, [rows, cursorId, openId]);
  useHotkeys(['up', 'k'], () => move(-1), LIST_KEY_OPTIONS, [rows, cursorId, openId]);
  useHotkeys('enter', () => cursorId !== null && open(cursorId), LIST_KEY_OPTIONS, [cursorId]);
  // Esc goes back one level: an open attempt to its message, the message to the list.
  const attemptId = useRouter((s) => s.route.attemptId);
  useHotkeys(
    'escape',
    () => {
      if (openId !== null && attemptId !== null) {
        // Focus inside the attempt (or already lost) goes back to the attempt's button in its timeline.
        const active = document.activeElement;
        if (!active || active === document.body || active.closest('[data-attempt-detail]')) focusAttemptButton(attemptId);
        navigate({ attemptId: null });
      } else if (openId !== null) close();
    },
    { preventDefault: false },
    [openId, attemptId],
  );
  useHotkeys(
    'r',
    () => {
      const id = openId ?? cursorId;
      if (id !== null) void api().call('retryNow', { id });
    },
    LIST_KEY_OPTIONS,
    [openId, cursorId],
  );

  return { openId, cursorId, open, close, onRowClick, gridRef };
}
