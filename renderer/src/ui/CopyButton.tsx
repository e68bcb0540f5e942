import { useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from './Button';
import { useToasts } from '../stores/toasts';

/** Copies `text` (or what `text()` gives, e.g. a secret fetched on demand); its accessible name says what it copies ("Copy as cURL"). */
export function CopyButton({ text, label, showLabel = true }: { text: string | (() => string | Promise<string>); label: string; showLabel?: boolean }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    let value: string;
    try {
      value = typeof text === 'function' ? await text() : text;
    } catch (e) {
      // What to copy could not be had (a secret the server would not reveal): say so, copy nothing.
      useToasts.getState().push({ tone: 'error', title: 'Copy failed', message: e instanceof Error ? e.message : String(e) });
      return;
    }
    try {
      await navigator.clipboard.writeText(value);
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
