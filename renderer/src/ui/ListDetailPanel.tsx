import type { ReactNode } from 'react';
import { plural } from '../lib/format';
import { Button } from './Button';
import { EmptyState } from './EmptyState';
import { ListHeader } from './ListHeader';

/**
 * The left panel of a screen that lists things of one kind (Receiver's endpoints, Sources): the header with
 * its New button, the new one's form while it is open, the list or the empty state that offers the first
 * one, and the selected one's panel below. Every text is made from `noun`, so the screens say the same.
 */
export function ListDetailPanel({ noun, count, loaded, creating, onNew, newForm, emptyIcon, emptyText, list, detail, missing }: {
  /** One of the things listed, lower case: "endpoint", "source". */
  noun: string;
  count: number;
  /** The list has been read once: until then neither the empty state nor `missing` shows. */
  loaded: boolean;
  /** The new one's form is open (it takes the selected one's place). */
  creating: boolean;
  onNew(): void;
  newForm: ReactNode;
  emptyIcon: ReactNode;
  /** What a thing of this kind is, in the empty state. */
  emptyText: ReactNode;
  /** The list itself (a `<ul>` of PickButtons). */
  list: ReactNode;
  /** The selected one's panel; null when none is selected. */
  detail: ReactNode;
  /** The name the route asks for when nothing has it; null when it is found or none was asked for. */
  missing: string | null;
}) {
  const plurals = `${noun}s`;
  return (
    <>
      <ListHeader title={plurals[0]!.toUpperCase() + plurals.slice(1)} count={plural(count, noun)} newLabel={`New ${noun}`} onNew={onNew} newDisabled={creating ? `The new ${noun}’s form is open below` : null} />
      <div className="min-h-0 flex-1 overflow-y-auto">
        {creating && (
          <div className="border-b border-line p-3">
            <h3 className="mb-2 text-[13px] font-semibold">New {noun}</h3>
            {newForm}
          </div>
        )}
        {count === 0 && !creating ? (
          loaded && (
            <EmptyState icon={emptyIcon} title={`No ${plurals} yet`} action={<Button variant="primary" onClick={onNew}>Create the first {noun}</Button>}>
              {emptyText}
            </EmptyState>
          )
        ) : (
          <div className="p-1.5">{list}</div>
        )}
        {detail !== null && !creating && <div className="border-t border-line p-3">{detail}</div>}
        {missing !== null && loaded && (
          <p className="p-3 text-xs text-err">
            No {noun} is named “{missing}”.
          </p>
        )}
      </div>
    </>
  );
}
