import { KeyRound } from 'lucide-react';
import type { ReceiverEndpoint } from '../../../../main/contract/receiver/receiver';
import { describeScript } from '../../../../main/contract/receiver/receiver';
import { PickButton } from '../../ui/PickButton';
import { VisibleText } from '../../ui/VisibleText';
import { stepsUsedWords } from './scriptForm';

/** The endpoints, one button each: name, script, whether signatures are checked, the steps of its script used. */
export function EndpointList({ endpoints, selected, onSelect }: { endpoints: ReceiverEndpoint[]; selected: string | null; onSelect(name: string): void }) {
  return (
    <ul aria-label="Endpoints" className="flex flex-col gap-0.5">
      {endpoints.map((e) => {
        const active = e.name === selected;
        return (
          <li key={e.name}>
            <PickButton label={e.name} active={active} onClick={() => onSelect(e.name)} className="flex h-8 items-center gap-2">
              <span className={`w-24 shrink-0 truncate font-mono ${active ? 'font-semibold text-fg' : 'text-fg'}`}>
                <VisibleText text={e.name} title={e.name} />
              </span>
              {/* Cut in a narrow list ("35 % of requests …"): the whole script reads on hover. */}
              <span className="min-w-0 flex-1 truncate text-muted" title={describeScript(e.script)}>
                {describeScript(e.script)}
              </span>
              {e.secret && <KeyRound aria-label="checks signatures" className="size-3.5 shrink-0 text-faint" />}
              {/* The script's place, not a count of answers: a never step counts, a refused signature does not, so it can differ from the captures listed. */}
              <span
                className="tabular shrink-0 text-right text-faint"
                title="Requests that took a step of its script since the script was set: a never step counts, though it sends nothing; a request refused for its signature gets 401 before the script and takes none"
              >
                {stepsUsedWords(e.answered)}
              </span>
            </PickButton>
          </li>
        );
      })}
    </ul>
  );
}
