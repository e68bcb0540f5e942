/**
 * Saving text the user asked for (an export): through the desktop app's save dialog when the bridge offers
 * one (main/contract/bridge.ts), else as a browser download (a Blob and a download link).
 */
export type SaveOutcome = { saved: 'dialog'; path: string } | { saved: 'download' } | { saved: 'cancelled' };

export async function saveText(name: string, text: string, mimeType: string): Promise<SaveOutcome> {
  const bridge = typeof window === 'undefined' ? undefined : window.hookbench;
  if (bridge) {
    const chosen = await bridge.saveFile({ defaultName: name, content: text });
    return chosen ? { saved: 'dialog', path: chosen.path } : { saved: 'cancelled' };
  }
  const url = URL.createObjectURL(new Blob([text], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by now; the URL only has to outlive the click.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { saved: 'download' };
}

/** `hookbench-2026-11-22T09-30-12.har` */
export function exportFileName(extension: string, at: number = Date.now()): string {
  return `hookbench-${new Date(at).toISOString().slice(0, 19).replace(/:/g, '-')}.${extension}`;
}
