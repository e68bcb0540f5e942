import { useEffect, useRef, type RefObject } from 'react';

/** Its controls that can take the focus now, in document order. */
function enabledControls(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('button, input, select, a[href]')].filter((el) => !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0 && !el.closest('.sr-only'));
}

/**
 * A control that is disabled while its action runs (and perhaps after: Reset offset at real time) drops the
 * keyboard focus to the page. The last control in `root` to have had the focus is remembered; when `busy`
 * goes back to false with the focus on the page, it goes back to that control, or, if it is disabled or gone,
 * to the nearest enabled one after it in `root` (else before it).
 */
export function useFocusBack(root: RefObject<HTMLElement | null>, busy: boolean): void {
  const last = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const remember = (e: FocusEvent) => {
      if (e.target instanceof HTMLElement) last.current = e.target;
    };
    el.addEventListener('focusin', remember);
    return () => el.removeEventListener('focusin', remember);
  }, [root]);
  useEffect(() => {
    const el = root.current;
    const from = last.current;
    if (busy || !el || !from) return;
    // Lost: on the page, or still on a control just disabled (the browser moves it off a moment later).
    const active = document.activeElement;
    if (active !== null && active !== document.body && !(active as HTMLButtonElement).disabled) return;
    const controls = enabledControls(el);
    if (from.isConnected && controls.includes(from)) return from.focus();
    const after = from.isConnected ? controls.find((c) => from.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING) : undefined;
    (after ?? controls.at(-1))?.focus();
  }, [root, busy]);
}
