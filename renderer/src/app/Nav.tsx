import { Activity, BookUser, Command, Inbox, Plug, Search, Send, Settings, ShieldCheck, Stethoscope, Waypoints, Webhook, type LucideIcon } from 'lucide-react';
import { usePalette } from '../stores/palette';
import { useRouter, type View } from '../stores/router';
import { ThemeSwitch } from './ThemeSwitch';
import { withModifier } from '../lib/platform';

const LINKS: { view: View; label: string; icon: LucideIcon }[] = [
  { view: 'live', label: 'Live', icon: Activity },
  { view: 'compose', label: 'Compose', icon: Send },
  { view: 'destinations', label: 'Destinations', icon: Waypoints },
  { view: 'sources', label: 'Sources', icon: Plug },
  { view: 'receiver', label: 'Receiver', icon: Inbox },
  { view: 'history', label: 'History', icon: Search },
  { view: 'troubleshoot', label: 'Troubleshoot', icon: Stethoscope },
  { view: 'check', label: 'Check', icon: ShieldCheck },
  { view: 'audiences', label: 'Audiences', icon: BookUser },
];

/** The left navigation; below 1024 px only the icons show (each link keeps its name). */
export function Nav() {
  const current = useRouter((s) => s.route.view);
  return (
    <nav aria-label="Main" className="flex w-12 shrink-0 flex-col border-r border-line bg-panel lg:w-36 xl:w-44">
      <div className="flex h-11 items-center gap-2 border-b border-line px-3.5">
        <Webhook aria-hidden className="size-5 shrink-0 text-accent" />
        <span className="hidden text-[14px] font-semibold tracking-tight lg:inline">Hookbench</span>
      </div>
      <ul className="flex flex-1 flex-col gap-0.5 p-1.5">
        {LINKS.map(({ view, label, icon: Icon }) => {
          const active = view === current;
          return (
            <li key={view}>
              <a
                href={`#/${view}`}
                aria-current={active ? 'page' : undefined}
                title={label}
                className={`flex h-8 items-center gap-2.5 rounded-md px-2 text-[13px] ${active ? 'bg-selected font-medium text-fg' : 'text-muted hover:bg-hover hover:text-fg'}`}
              >
                <Icon aria-hidden className={`size-4 shrink-0 ${active ? 'text-accent' : ''}`} />
                <span className="sr-only lg:not-sr-only">{label}</span>
              </a>
            </li>
          );
        })}
      </ul>
      <div className="flex flex-col gap-0.5 border-t border-line p-1.5">
        <button
          type="button"
          onClick={() => usePalette.getState().setOpen(true)}
          aria-label="Command palette"
          aria-keyshortcuts="Control+K Meta+K"
          title={`Command palette (${withModifier('K')})`}
          className="flex h-8 items-center gap-2.5 rounded-md px-2 text-[13px] text-muted hover:bg-hover hover:text-fg"
        >
          <Command aria-hidden className="size-4 shrink-0" />
          <span aria-hidden className="hidden lg:inline">Commands</span>
          <kbd className="ml-auto hidden rounded border border-line px-1 font-mono text-[10px] text-faint xl:inline">{withModifier('K')}</kbd>
        </button>
        <a
          href="#/settings"
          aria-current={current === 'settings' ? 'page' : undefined}
          title="Settings"
          className={`flex h-8 items-center gap-2.5 rounded-md px-2 text-[13px] ${current === 'settings' ? 'bg-selected font-medium text-fg' : 'text-muted hover:bg-hover hover:text-fg'}`}
        >
          <Settings aria-hidden className={`size-4 shrink-0 ${current === 'settings' ? 'text-accent' : ''}`} />
          <span className="sr-only lg:not-sr-only">Settings</span>
        </a>
        <ThemeSwitch />
      </div>
    </nav>
  );
}
