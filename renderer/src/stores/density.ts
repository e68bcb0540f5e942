/**
 * Density: comfortable (the default) or compact, kept in localStorage and applied as `data-density` on
 * <html>. Lists read their row height from here (virtual lists need it in pixels); CSS tightens the rest.
 */
import { create } from 'zustand';

export type Density = 'comfortable' | 'compact';
const KEY = 'hookbench.density';

/** Row heights in pixels, per list and density. */
export const ROW_HEIGHTS = {
  live: { comfortable: 32, compact: 26 },
  capture: { comfortable: 46, compact: 40 },
} as const;

function stored(): Density {
  return typeof localStorage !== 'undefined' && localStorage.getItem(KEY) === 'compact' ? 'compact' : 'comfortable';
}

interface DensityState {
  density: Density;
  setDensity(density: Density): void;
}

export const useDensity = create<DensityState>((set) => ({
  density: 'comfortable',
  setDensity(density) {
    if (density === 'compact') localStorage.setItem(KEY, density);
    else localStorage.removeItem(KEY);
    document.documentElement.dataset['density'] = density;
    set({ density });
  },
}));

export function initDensity(): void {
  const density = stored();
  document.documentElement.dataset['density'] = density;
  useDensity.setState({ density });
}

/** The row height of a list at the current density. */
export function useRowHeight(list: keyof typeof ROW_HEIGHTS): number {
  return ROW_HEIGHTS[list][useDensity((s) => s.density)];
}
