/**
 * The IPC channel names between main and the preload. The preload (a sandboxed CommonJS script that may
 * require nothing but 'electron') spells them out itself; test/unit/desktop/preload.test.ts holds the two
 * lists equal.
 */
export const CHANNELS = {
  /** invoke: (name, input) → Result, through dispatch. */
  call: 'hookbench:call',
  /** main → renderer: one EventFrame. */
  events: 'hookbench:events',
  openFile: 'hookbench:openFile',
  saveFile: 'hookbench:saveFile',
  revealDataDir: 'hookbench:revealDataDir',
  openExternal: 'hookbench:openExternal',
} as const;
