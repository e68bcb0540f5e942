import { Plus, X } from 'lucide-react';
import { useId } from 'react';
import type { RuleOp } from '../../../../main/contract/audiences';
import { Button } from '../../ui/Button';
import { Segmented } from '../../ui/Segmented';
import { newCondition, newGroup, OP_LABELS, OPS, ownerOf, parseValue, updateNode, valueType, type EditCondition, type EditGroup, type EditNode } from './ruleModel';

/** Groups nest at most this deep in the editor (the API takes 16). */
const MAX_UI_DEPTH = 3;

interface Props {
  value: EditGroup;
  onChange(next: EditGroup): void;
  /** Trait names the source's users have, offered as the trait is typed. */
  traits: string[];
  /** The server's error, when its field is inside the rule (`rule.all[1].op`). */
  error: { field: string; message: string } | null;
}

/**
 * A small rule editor: a group matches when `all` or `any` of its conditions (or nested groups) do; each
 * condition tests one trait (a dotted path reaches into objects) with one of the six operators.
 */
export function RuleEditor({ value, onChange, traits, error }: Props) {
  const listId = useId();
  const owner = error ? ownerOf(value, error.field) : null;
  const errorAt = (key: number) => {
    if (!error || !owner || owner.node.key !== key) return null;
    // Said under its row: the API's path to the row (`rule.all[1].`) is the row itself, so it goes.
    const at = owner.path;
    return error.message.startsWith(`${at}.`) ? error.message.slice(at.length + 1) : error.message.startsWith(`${at}: `) ? error.message.slice(at.length + 2) : error.message;
  };
  return (
    <div className="flex flex-col gap-1.5">
      <datalist id={listId}>
        {traits.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      <GroupView group={value} root={value} depth={1} label="Rule" listId={listId} onChange={onChange} errorAt={errorAt} />
    </div>
  );
}

function GroupView({ group, root, depth, label, listId, onChange, errorAt }: { group: EditGroup; root: EditGroup; depth: number; label: string; listId: string; onChange(next: EditGroup): void; errorAt(key: number): string | null }) {
  const set = (fn: (node: EditNode) => EditNode | null) => onChange(updateNode(root, group.key, fn));
  const add = (node: EditNode) => set((g) => ({ ...(g as EditGroup), children: [...(g as EditGroup).children, node] }));
  const error = errorAt(group.key);
  return (
    <div role="group" aria-label={label} className={`flex flex-col gap-1.5 ${depth > 1 ? 'rounded-md border border-line bg-panel-2/50 p-2' : ''}`}>
      <div className="flex items-center gap-2 text-xs">
        <span className="text-muted">Match</span>
        <Segmented<'all' | 'any'> label={`${label}: match`} value={group.mode} onChange={(mode) => set((g) => ({ ...(g as EditGroup), mode }))} options={[{ value: 'all', label: 'all' }, { value: 'any', label: 'any' }]} />
        <span className="text-muted">of these conditions</span>
        {depth > 1 && (
          <button type="button" aria-label={`Remove ${label.toLowerCase()}`} onClick={() => set(() => null)} className="ml-auto flex size-6 items-center justify-center rounded-md text-faint hover:bg-hover hover:text-fg">
            <X aria-hidden className="size-3.5" />
          </button>
        )}
      </div>
      {group.children.length === 0 && <p className="text-[11px] text-faint">{depth === 1 ? 'No rule: only the explicit members belong.' : 'An empty group matches nothing: add a condition.'}</p>}
      {group.children.map((child, i) =>
        child.kind === 'group' ? (
          <GroupView key={child.key} group={child} root={root} depth={depth + 1} label={`${label} group ${i + 1}`} listId={listId} onChange={onChange} errorAt={errorAt} />
        ) : (
          <ConditionRow key={child.key} condition={child} label={`${label === 'Rule' ? 'Condition' : `${label} condition`} ${i + 1}`} listId={listId} error={errorAt(child.key)} onChange={(next) => onChange(updateNode(root, child.key, () => next))} />
        ),
      )}
      {error && <p className="text-[11px] text-err">{error}</p>}
      <div className="flex gap-1.5">
        {/* A nested group's buttons say which group they add to: the rule's own are beside them. */}
        <Button variant="ghost" icon={<Plus aria-hidden className="size-3.5" />} onClick={() => add(newCondition())} aria-label={depth > 1 ? `Add condition to ${label.toLowerCase()}` : undefined}>
          Add condition
        </Button>
        {depth < MAX_UI_DEPTH && (
          <Button variant="ghost" icon={<Plus aria-hidden className="size-3.5" />} onClick={() => add(newGroup(group.mode === 'all' ? 'any' : 'all', [newCondition()]))} aria-label={depth > 1 ? `Add group to ${label.toLowerCase()}` : undefined}>
            Add group
          </Button>
        )}
      </div>
    </div>
  );
}

function ConditionRow({ condition: c, label, listId, error, onChange }: { condition: EditCondition; label: string; listId: string; error: string | null; onChange(next: EditCondition | null): void }) {
  const type = valueType(parseValue(c.op, c.value));
  const input = `h-7 min-w-0 rounded-md border bg-panel px-2 font-mono text-xs ${error ? 'border-err' : 'border-line focus-visible:border-accent'}`;
  return (
    <div role="group" aria-label={label} className="flex flex-col gap-0.5">
      <div className="flex items-center gap-1.5">
        <input aria-label={`${label} trait`} placeholder="trait: spend, address.city" list={listId} value={c.trait} onChange={(e) => onChange({ ...c, trait: e.target.value })} className={`${input} flex-[3]`} spellCheck={false} autoComplete="off" />
        <select aria-label={`${label} operator`} value={c.op} onChange={(e) => onChange({ ...c, op: e.target.value as RuleOp })} className="h-7 shrink-0 rounded-md border border-line bg-panel px-1.5 text-xs">
          {OPS.map((op) => (
            <option key={op} value={op}>
              {OP_LABELS[op]}
            </option>
          ))}
        </select>
        {c.op === 'exists' ? (
          <span className="flex-[3] text-[11px] text-faint">(no value)</span>
        ) : (
          <span className="relative flex min-w-0 flex-[3]">
            <input aria-label={`${label} value`} placeholder={c.op === 'gt' || c.op === 'lt' ? '500 or 2026-01-01' : 'EU, 42, true, "42"'} value={c.value} onChange={(e) => onChange({ ...c, value: e.target.value })} className={`${input} w-full pr-12`} spellCheck={false} autoComplete="off" />
            {c.value.trim() !== '' && <span className="pointer-events-none absolute top-1/2 right-2 -translate-y-1/2 text-[10px] text-faint">{type}</span>}
          </span>
        )}
        <button type="button" aria-label={`Remove ${label.toLowerCase()}`} onClick={() => onChange(null)} className="flex size-6 shrink-0 items-center justify-center rounded-md text-faint hover:bg-hover hover:text-fg">
          <X aria-hidden className="size-3.5" />
        </button>
      </div>
      {error && <p className="text-[11px] text-err">{error}</p>}
    </div>
  );
}
