/** The modifier key a shortcut is shown with: ⌘ on a Mac, Ctrl elsewhere (the keys work with both). */
export function isMacPlatform(platform: string = typeof navigator !== 'undefined' ? navigator.platform : ''): boolean {
  return /Mac|iPhone|iPad/.test(platform);
}

/** `key` with this platform's modifier: "⌘K" on a Mac, "Ctrl+K" elsewhere. */
export function withModifier(key: string, platform?: string): string {
  return isMacPlatform(platform) ? `⌘${key}` : `Ctrl+${key}`;
}
