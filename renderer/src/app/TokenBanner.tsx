import { KeyRound } from 'lucide-react';
import { useConnection } from '../stores/connection';

/**
 * Said once, above every screen, when the server no longer takes this window's API token (it was rotated, or the
 * link is an old one): every command would be refused, and a screen's own error would read as a fault of its own.
 */
export function TokenBanner() {
  const revoked = useConnection((s) => s.state === 'revoked');
  if (!revoked) return null;
  return (
    <div role="alert" className="flex shrink-0 items-center gap-2 border-b border-err/30 bg-err-soft px-3 py-2 text-xs text-fg">
      <KeyRound aria-hidden className="size-3.5 shrink-0 text-err" />
      <span>
        This window's API token no longer works: it was rotated, or this link is an old one. Open the new link:{' '}
        <code className="font-mono">npx hookbench info uiUrl</code> prints it (add --data-dir DIR if your serve has one).
      </span>
    </div>
  );
}
