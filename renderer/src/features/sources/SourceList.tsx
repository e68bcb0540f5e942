import type { Source, SourceUsage } from '../../../../main/contract/sources';
import { Sparkline } from './Sparkline';
import { PickButton } from '../../ui/PickButton';
import { VisibleText } from '../../ui/VisibleText';
import { formatCount } from '../../lib/format';

/** The sources, one button each: name, kind, calls over the last hour, received in all. */
export function SourceList({ sources, usage, selected, onSelect }: { sources: Source[]; usage: Record<string, SourceUsage>; selected: string | null; onSelect(name: string): void }) {
  return (
    <ul aria-label="Sources" className="flex flex-col gap-0.5">
      {sources.map((s) => {
        const active = s.name === selected;
        const u = usage[s.id];
        return (
          <li key={s.id}>
            <PickButton label={s.name} active={active} onClick={() => onSelect(s.name)} className="flex h-9 items-center gap-2">
              <span className={`min-w-0 flex-1 truncate font-mono ${active ? 'font-semibold' : ''}`}>
                <VisibleText text={s.name} />
              </span>
              <span className="w-14 shrink-0 text-muted">{s.kind}</span>
              {u ? <Sparkline minutes={u.lastHour} width={90} height={18} label={`${s.name}: calls per minute over the last hour`} /> : <span className="w-[90px]" />}
              <span className="tabular w-14 shrink-0 text-right font-mono text-faint" title="Calls received in all">
                {formatCount(u?.received ?? 0)}
              </span>
            </PickButton>
          </li>
        );
      })}
    </ul>
  );
}
