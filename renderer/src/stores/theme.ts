/** Light, dark or the system's choice; kept in localStorage and applied as `data-theme` on <html>. */
import { create } from 'zustand';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'hookbench.theme';

function stored(): ThemeChoice {
  const value = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

const media = () => window.matchMedia('(prefers-color-scheme: dark)');

function resolve(choice: ThemeChoice): 'light' | 'dark' {
  if (choice !== 'system') return choice;
  return media().matches ? 'dark' : 'light';
}

interface ThemeState {
  choice: ThemeChoice;
  /** What is shown now (the system's answer when the choice is `system`). */
  resolved: 'light' | 'dark';
  setChoice(choice: ThemeChoice): void;
}

function apply(choice: ThemeChoice): 'light' | 'dark' {
  const resolved = resolve(choice);
  document.documentElement.dataset['theme'] = resolved;
  return resolved;
}

export const useTheme = create<ThemeState>((set) => ({
  choice: 'system',
  resolved: 'light',
  setChoice(choice) {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
    set({ choice, resolved: apply(choice) });
  },
}));

/** Applies the stored choice now and follows the system while the choice is `system`. */
export function initTheme(): void {
  const choice = stored();
  useTheme.setState({ choice, resolved: apply(choice) });
  media().addEventListener('change', () => useTheme.setState({ resolved: apply(useTheme.getState().choice) }));
}
