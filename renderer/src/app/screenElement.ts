/** The screen's main landmark (App.tsx): where focus goes when something other than a link opened a screen. */
export const SCREEN_ID = 'screen';

export function screenElement(): HTMLElement | null {
  return document.getElementById(SCREEN_ID);
}
