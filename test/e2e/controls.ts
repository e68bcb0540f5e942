/**
 * What assistive technology reads of a page's controls, from Chromium's own accessibility tree (its computed
 * roles, names, descriptions and disabled states), so a check sees what a screen reader user hears.
 */
import type { Locator, Page } from 'playwright-core';

/** The roles someone picks a control by name among. */
export const CONTROL_ROLES = ['button', 'link', 'textbox', 'searchbox', 'spinbutton', 'combobox', 'checkbox', 'switch', 'tab'] as const;
/** Chromium's roles of a native date or time field: one control, whose parts (Month, Day, the picker) are the browser's. */
const NATIVE_FIELDS = ['DateTime', 'Date', 'InputTime'];

export interface Control {
  role: string;
  name: string;
  description: string;
  disabled: boolean;
  busy: boolean;
}

interface AXValue {
  value?: unknown;
}
interface AXNode {
  nodeId: string;
  parentId?: string;
  ignored: boolean;
  role?: AXValue;
  name?: AXValue;
  description?: AXValue;
  properties?: { name: string; value: AXValue }[];
}

/** Every control of the page that is not hidden from assistive technology. */
export async function controlsOf(page: Page): Promise<Control[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] };
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const roleOf = (n: AXNode) => String(n.role?.value ?? '');
    const insideNativeField = (n: AXNode) => {
      for (let p = n.parentId && byId.get(n.parentId); p; p = p.parentId && byId.get(p.parentId)) if (NATIVE_FIELDS.includes(roleOf(p))) return true;
      return false;
    };
    const controls: Control[] = [];
    for (const node of nodes) {
      const role = roleOf(node);
      if (node.ignored || !([...CONTROL_ROLES, ...NATIVE_FIELDS] as readonly string[]).includes(role) || insideNativeField(node)) continue;
      const property = (name: string) => node.properties?.find((p) => p.name === name)?.value.value;
      controls.push({
        role,
        name: String(node.name?.value ?? '').trim(),
        description: String(node.description?.value ?? '').trim(),
        disabled: property('disabled') === true,
        busy: property('busy') === true,
      });
    }
    return controls;
  } finally {
    await cdp.detach();
  }
}

/** `view: 2 buttons named "Cancel"` for each name two enabled controls of one role share. */
export function duplicateNames(view: string, controls: readonly Control[]): string[] {
  const counts = new Map<string, number>();
  for (const c of controls) {
    if (c.disabled || c.name === '') continue;
    const key = `${c.role}\u0000${c.name}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].filter(([, n]) => n > 1).map(([key, n]) => {
    const [role, name] = key.split('\u0000') as [string, string];
    return `${view}: ${n} ${role}s named ${JSON.stringify(name)}`;
  });
}

/** `view: button "Retry now" is disabled and does not say why` for each disabled control without a description. */
export function silentDisabled(view: string, controls: readonly Control[]): string[] {
  // A busy control is disabled while its own action runs: its spinner says why.
  return controls.filter((c) => c.disabled && !c.busy && c.description === '').map((c) => `${view}: ${c.role} ${JSON.stringify(c.name)} is disabled and does not say why`);
}

/** Whether the element `locator` finds has the keyboard focus. */
export function hasFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el.ownerDocument.activeElement === el);
}
