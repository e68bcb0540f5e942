import { Monitor, Moon, Sun } from 'lucide-react';
import { useTheme, type ThemeChoice } from '../stores/theme';

const CHOICES: { choice: ThemeChoice; label: string; icon: typeof Sun }[] = [
  { choice: 'system', label: 'System theme', icon: Monitor },
  { choice: 'light', label: 'Light theme', icon: Sun },
  { choice: 'dark', label: 'Dark theme', icon: Moon },
];

export function ThemeSwitch() {
  const { choice, setChoice } = useTheme();
  return (
    // Below 1024 px the narrow navigation has no room for three buttons: Settings and the palette keep the choice.
    <div role="radiogroup" aria-label="Theme" className="hidden gap-0.5 lg:flex lg:flex-row">
      {CHOICES.map(({ choice: c, label, icon: Icon }) => (
        <button
          key={c}
          type="button"
          role="radio"
          aria-checked={choice === c}
          aria-label={label}
          title={label}
          onClick={() => setChoice(c)}
          className={`flex h-7 flex-1 items-center justify-center rounded-md ${choice === c ? 'bg-selected text-fg' : 'text-faint hover:bg-hover hover:text-fg'}`}
        >
          <Icon aria-hidden className="size-3.5" />
        </button>
      ))}
    </div>
  );
}
