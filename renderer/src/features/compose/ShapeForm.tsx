import { useId } from 'react';
import type { MessageType } from '../../../../main/contract/message/messageShapes';
import { useCompose } from '../../stores/compose';
import { JsonEditor } from '../../ui/JsonEditor';
import { formFields, type FieldProblem, type FormField } from '../../lib/composeModel';

/** The type's form, field by field from the shape table: one component for all seven types. */
export function ShapeForm({ type, problems }: { type: MessageType; problems: FieldProblem[] }) {
  return (
    <div className="flex flex-col gap-3">
      {formFields(type).map((field) => (
        <FieldRow key={`${type}-${field.key}`} field={field} problem={problems.find((p) => p.key === field.key)?.message} />
      ))}
    </div>
  );
}

function FieldRow({ field, problem }: { field: FormField; problem: string | undefined }) {
  const id = useId();
  const { call, objectTexts, setString, setObjectText, serverErrors } = useCompose();
  const objectError = field.kind === 'object' ? objectTexts[field.key]?.error : null;
  const message = serverErrors[field.key] ?? (objectError ? `${field.label}: ${objectError}` : problem);
  const errorId = `${id}-error`;
  const helpId = `${id}-help`;
  const describedBy = [helpId, ...(message ? [errorId] : [])].join(' ');
  const value = call[field.key];
  return (
    <div className="grid grid-cols-[8.5rem_minmax(0,1fr)] items-start gap-x-3">
      {/* An object field's editor is named by its own aria-label (a <label> cannot point at it); the
          required mark stays outside the label so the name is exactly the label. */}
      <div className="pt-1.5 text-xs font-medium text-fg">
        {field.kind === 'string' ? <label htmlFor={id}>{field.label}</label> : <span>{field.label}</span>}
        {field.required && (
          <span className="text-err" aria-hidden>
            {' '}
            *
          </span>
        )}
      </div>
      <div className="min-w-0">
        {field.kind === 'string' ? (
          <div className="flex gap-1.5">
            <input
              id={id}
              type="text"
              value={typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value)}
              onChange={(e) => setString(field.key, e.target.value)}
              aria-invalid={message ? true : undefined}
              aria-describedby={describedBy}
              aria-required={field.required || undefined}
              placeholder={field.key === 'timestamp' ? 'now, when it is received' : undefined}
              spellCheck={false}
              className={`h-7 w-full min-w-0 rounded-md border bg-panel px-2 font-mono text-xs ${message ? 'border-err' : 'border-line focus-visible:border-accent'}`}
            />
            {field.key === 'timestamp' && (
              <button type="button" onClick={() => setString('timestamp', new Date().toISOString())} className="h-7 shrink-0 rounded-md border border-line px-2 text-xs text-muted hover:bg-hover hover:text-fg">
                Now
              </button>
            )}
          </div>
        ) : (
          <div id={id}>
            <JsonEditor label={field.label} value={objectTexts[field.key]?.text ?? ''} onChange={(text) => setObjectText(field.key, text)} invalid={Boolean(message)} describedBy={describedBy} placeholder="{}" />
          </div>
        )}
        <p id={helpId} className="mt-0.5 text-[11px] text-faint">
          {field.help}
        </p>
        {message && (
          <p id={errorId} className="mt-0.5 text-[11px] text-err">
            {message}
          </p>
        )}
      </div>
    </div>
  );
}
