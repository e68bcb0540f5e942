import CodeMirror from '@uiw/react-codemirror';
import { unifiedMergeView } from '@codemirror/merge';
import { EditorView, highlightWhitespace } from '@codemirror/view';
import { useMemo } from 'react';
import { useTheme } from '../stores/theme';

/**
 * `changed` against `original` as one unified diff (@codemirror/merge): what was removed shows struck
 * through above what was added; spaces and tabs are drawn, so a difference of whitespace is visible.
 */
export function ByteDiff({ original, changed, label, maxHeight = '16rem' }: { original: string; changed: string; label: string; maxHeight?: string }) {
  const theme = useTheme((s) => s.resolved);
  const extensions = useMemo(
    () => [
      unifiedMergeView({ original, mergeControls: false, highlightChanges: true, gutter: true, syntaxHighlightDeletions: false }),
      highlightWhitespace(),
      EditorView.lineWrapping,
      EditorView.editable.of(false),
      EditorView.contentAttributes.of({ 'aria-label': label }),
    ],
    [original, label],
  );
  return (
    <CodeMirror
      value={changed}
      theme={theme}
      readOnly
      editable={false}
      maxHeight={maxHeight}
      extensions={extensions}
      basicSetup={{ lineNumbers: false, foldGutter: false, highlightActiveLine: false, highlightActiveLineGutter: false }}
    />
  );
}
