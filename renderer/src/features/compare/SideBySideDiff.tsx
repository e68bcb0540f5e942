import { MergeView } from '@codemirror/merge';
import { EditorState, EditorView, getDefaultExtensions } from '@uiw/react-codemirror';
import { json } from '@codemirror/lang-json';
import { useEffect, useRef } from 'react';
import { useTheme } from '../../stores/theme';

/**
 * Two texts side by side (@codemirror/merge's MergeView): changed lines marked, the changed characters
 * highlighted, long unchanged stretches collapsed. Read-only.
 */
export function SideBySideDiff({ left, right, label, language }: { left: string; right: string; label: string; language: 'json' | 'text' }) {
  const host = useRef<HTMLDivElement | null>(null);
  const theme = useTheme((s) => s.resolved);
  useEffect(() => {
    if (!host.current) return;
    const extensions = (side: string) => [
      ...getDefaultExtensions({ theme, readOnly: true, editable: false, basicSetup: { lineNumbers: true, foldGutter: false, highlightActiveLine: false, highlightActiveLineGutter: false } }),
      ...(language === 'json' ? [json()] : []),
      EditorView.lineWrapping,
      EditorState.readOnly.of(true),
      EditorView.editable.of(false),
      EditorView.contentAttributes.of({ 'aria-label': `${label}, ${side}` }),
    ];
    const view = new MergeView({
      a: { doc: left, extensions: extensions('left') },
      b: { doc: right, extensions: extensions('right') },
      parent: host.current,
      highlightChanges: true,
      gutter: true,
      collapseUnchanged: { margin: 3, minSize: 6 },
    });
    return () => view.destroy();
  }, [left, right, label, language, theme]);
  return <div ref={host} className="max-h-[28rem] overflow-auto text-xs [&_.cm-mergeView]:max-h-none" />;
}
