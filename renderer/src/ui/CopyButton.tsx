import { useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from './Button';
import { useToasts } from '../stores/toasts';

/** Copies `text`; its accessible name says what it copies ("Copy as cURL"). */
export function CopyButton({ text, label, showLabel = true }: { text: string | (() => string); label: string; showLabel?: boolean }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(typeof text === 'function' ? text() : text);
      setDone(true);
      setTimeout(() => setDone(false), 1200);
    } catch (e) {
      useToasts.getState().push({ tone: 'error', title: 'Copy failed', message: `the clipboard refused: ${e instanceof Error ? e.message : String(e)}` });
    }
  };
  return (
    <Button variant="ghost" aria-label={label} title={label} onClick={() => void copy()} icon={done ? <Check aria-hidden className="size-3.5 text-ok" /> : <Copy aria-hidden className="size-3.5" />}>
      {showLabel ? label : null}
    </Button>
  );
}
