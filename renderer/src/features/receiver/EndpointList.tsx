import { KeyRound } from 'lucide-react';
import type { ReceiverEndpoint } from '../../../../main/contract/receiver/receiver';
import { describeScript } from '../../../../main/contract/receiver/receiver';
import { PickButton } from '../../ui/PickButton';
import { VisibleText } from '../../ui/VisibleText';

/** The endpoints, one button each: name, script, whether signatures are checked, requests answered. */
export function EndpointList({ endpoints, selected, onSelect }: { endpoints: ReceiverEndpoint[]; selected: string | null; onSelect(name: string): void }) {
  return (
    <ul aria-label="Endpoints" className="flex flex-col gap-0.5">
      {endpoints.map((e) => {
        const active = e.name === selected;
        return (
          <li key={e.name}>
            <PickButton label={e.name} active={active} onClick={() => onSelect(e.name)} className="flex h-8 items-center gap-2">
              <span className={`w-24 shrink-0 truncate font-mono ${active ? 'font-semibold text-fg' : 'text-fg'}`}>
                <VisibleText text={e.name} />
              </span>
              <span className="min-w-0 flex-1 truncate text-muted">{describeScript(e.script)}</span>
              {e.secret && <KeyRound aria-label="checks signatures" className="size-3.5 shrink-0 text-faint" />}
              {/* The script's own count since it was last saved (a refused signature is answered before the script), so it can be below the captures listed for the endpoint. */}
              <span className="tabular shrink-0 text-right text-faint" title="Requests its script answered since it was last saved (requests refused for their signature are answered before the script and not counted)">
                <span className="font-mono">{e.answered}</span> answered
              </span>
            </PickButton>
          </li>
        );
      })}
    </ul>
  );
}
