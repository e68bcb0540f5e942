/**
 * The Live grid's columns, shared by the header and the rows. Narrow lists (the detail pane open on a
 * small screen) drop the less important columns (container-query classes), and below 680 px the time goes
 * under the event (MessageRow), so that the destinations' names keep their room.
 */
export interface Column {
  key: 'time' | 'type' | 'event' | 'user' | 'source' | 'status' | 'deliveries' | 'attempts' | 'next';
  label: string;
  className: string;
}

/** The Time column when a listed message is from another day than the engine's: its date joins the time. */
export const WIDE_TIME_CLASS = 'w-[124px] shrink-0 hidden @[680px]:block';

/** A column's classes; `wideTime` widens Time for dated rows. */
export function columnClass(c: Column, wideTime: boolean): string {
  return c.key === 'time' && wideTime ? WIDE_TIME_CLASS : c.className;
}

export const COLUMNS: Column[] = [
  { key: 'time', label: 'Time', className: 'w-[84px] shrink-0 hidden @[680px]:block' },
  { key: 'type', label: 'Type', className: 'w-[60px] shrink-0 hidden @[680px]:block' },
  { key: 'event', label: 'Event / name', className: 'min-w-0 flex-1 @[1000px]:flex-[2]' },
  { key: 'user', label: 'User', className: 'min-w-0 flex-1 hidden @[760px]:block' },
  { key: 'source', label: 'Source', className: 'w-[96px] shrink-0 hidden @[900px]:block' },
  { key: 'status', label: 'Status', className: 'w-[84px] shrink-0' },
  // Each destination's outcome; names join the chips where the cell (a container) has room for them all.
  { key: 'deliveries', label: 'Destinations', className: '@container/chips min-w-[136px] flex-[2] @[1000px]:flex-[1.5]' },
  { key: 'attempts', label: 'Attempts', className: 'w-[60px] shrink-0 text-right hidden @[820px]:block' },
  { key: 'next', label: 'Next retry', className: 'w-[72px] shrink-0 text-right hidden @[520px]:block' },
];
