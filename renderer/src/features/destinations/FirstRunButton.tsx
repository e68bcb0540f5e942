import { useState } from 'react';
import { Zap } from 'lucide-react';
import { Button } from '../../ui/Button';
import { firstRun, FIRST_RUN_LABEL } from './firstRun';

/** The first-run shortcut as one button (firstRun.ts says what it does). */
export function FirstRunButton({ variant = 'primary' }: { variant?: 'primary' | 'default' }) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await firstRun();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant={variant} size="md" busy={busy} icon={<Zap aria-hidden className="size-3.5" />} onClick={() => void run()}>
      {FIRST_RUN_LABEL}
    </Button>
  );
}
