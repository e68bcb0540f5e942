/**
 * A subtree rendered once, through a portal, into an element of its own that moves between places in the
 * page (NodeSlot): its components keep their state when the layout around them changes, as Live's list does
 * when it is first split for a message's pane. The element is `display: contents`, so it lays out as if its
 * children were the slot's parent's. The browser forgets an element's scroll position and focus when it
 * leaves the page, so a move carries them over.
 */
import { useLayoutEffect, useRef, useState } from 'react';

interface Carried {
  focused: HTMLElement | null;
  scrolled: [Element, number][];
}

/** What a node held when it left its last slot, until the next one shows it. */
const carried = new WeakMap<HTMLElement, Carried>();

/** The element to render the subtree into (createPortal), one per mount of the calling component. */
export function useMovableNode(): HTMLElement {
  const [node] = useState(() => {
    const element = document.createElement('div');
    element.style.display = 'contents';
    return element;
  });
  return node;
}

/** Shows `node` where this is rendered. */
export function NodeSlot({ node }: { node: HTMLElement }) {
  const slot = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    slot.current!.appendChild(node);
    const kept = carried.get(node);
    carried.delete(node);
    if (kept) {
      for (const [element, top] of kept.scrolled) element.scrollTop = top;
      kept.focused?.focus({ preventScroll: true });
    }
    // Run while the slot is still in the page, before React removes it (and the node with it).
    return () => {
      const active = document.activeElement;
      const scrolled: [Element, number][] = [];
      for (const element of node.querySelectorAll('*')) if (element.scrollTop > 0) scrolled.push([element, element.scrollTop]);
      carried.set(node, { focused: active instanceof HTMLElement && node.contains(active) ? active : null, scrolled });
    };
  }, [node]);
  return <div ref={slot} className="contents" />;
}
