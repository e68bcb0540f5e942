import CodeMirror from '@uiw/react-codemirror';
import { json } from '@codemirror/lang-json';
import { EditorView } from '@codemirror/view';
import { useMemo } from 'react';
import { useTheme } from '../stores/theme';

/** An editable JSON text (CodeMirror); its accessible name is `label`. */
export function JsonEditor({ value, onChange, label, minHeight = '4.5rem', maxHeight = '14rem', invalid = false, describedBy, placeholder, fill = false }: { value: string; onChange(text: string): void; label: string; minHeight?: string; maxHeight?: string; invalid?: boolean; describedBy?: string; placeholder?: string; /** Take the parent's whole height. */ fill?: boolean }) {
  const theme = useTheme((s) => s.resolved);
  const extensions = useMemo(
    () => [json(), EditorView.lineWrapping, EditorView.contentAttributes.of({ 'aria-label': label, ...(describedBy ? { 'aria-describedby': describedBy } : {}), ...(invalid ? { 'aria-invalid': 'true' } : {}) })],
    [label, describedBy, invalid],
  );
  return (
    <div className={`overflow-hidden rounded-md border bg-panel ${fill ? 'h-full' : ''} ${invalid ? 'border-err' : 'border-line focus-within:border-accent'}`}>
      <CodeMirror
        value={value}
        onChange={onChange}
        theme={theme}
        {...(fill ? { height: '100%', className: 'h-full' } : { minHeight, maxHeight })}
        extensions={extensions}
        {...(placeholder ? { placeholder } : {})}
        basicSetup={{ lineNumbers: false, foldGutter: false, highlightActiveLine: false, highlightActiveLineGutter: false, autocompletion: false }}
      />
    </div>
  );
}
