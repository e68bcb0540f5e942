/**
 * A worker's whole work (api/firstRequests.ts starts it as the page starts): make the date and number
 * formats the first screen uses, so the locale's data they load, which the whole browser process shares, is
 * loaded on this thread rather than in the page's first render. Then it ends.
 */
new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }).format(0);
new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' }).format(0);
(0).toLocaleString();
self.close();
