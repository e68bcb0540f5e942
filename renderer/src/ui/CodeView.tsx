import CodeMirror from '@uiw/react-codemirror';
import { json } from '@codemirror/lang-json';
import { EditorView } from '@codemirror/view';
import { useMemo } from 'react';
import { useTheme } from '../stores/theme';

/** Read-only code (JSON highlighted) in CodeMirror; long lines wrap. */
export function CodeView({ value, label, language = 'json', maxHeight = '24rem' }: { value: string; label: string; language?: 'json' | 'text'; maxHeight?: string }) {
  const theme = useTheme((s) => s.resolved);
  const extensions = useMemo(() => [...(language === 'json' ? [json()] : []), EditorView.lineWrapping, EditorView.contentAttributes.of({ 'aria-label': label })], [language, label]);
  return (
    <CodeMirror
      value={value}
      theme={theme}
      editable={false}
      readOnly
      maxHeight={maxHeight}
      extensions={extensions}
      basicSetup={{ lineNumbers: true, foldGutter: true, highlightActiveLine: false, highlightActiveLineGutter: false }}
    />
  );
}
