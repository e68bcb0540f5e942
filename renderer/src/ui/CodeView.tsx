import CodeMirror from '@uiw/react-codemirror';
import { json } from '@codemirror/lang-json';
import { Decoration, EditorView, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import { useMemo } from 'react';
import { jsonLayout } from '../lib/jsonWrap';
import { useTheme } from '../stores/theme';

/** One member ("userId":"user-7",) or opening (`"properties":{`): wrapped as a whole, or alone on its lines. */
const MEMBER = Decoration.mark({ class: 'cm-json-member' });
/** A string value: whole on the line after its key when the member does not fit on one. */
const VALUE = Decoration.mark({ class: 'cm-json-value' });

function layoutOf(view: EditorView): DecorationSet {
  const { members, values } = jsonLayout(view.state.doc.toString());
  return Decoration.set([...members.map(([from, to]) => MEMBER.range(from, to)), ...values.map(([from, to]) => VALUE.range(from, to))], true);
}

/**
 * Wrapping at JSON token boundaries: each member is one unbreakable box (an inline-block), so a line only
 * ends between members, never inside "user-7" or a timestamp at its `-`. A member longer than a line puts
 * its string value on the next line, whole; only a value longer than a line wraps inside itself, as it must.
 * The text is the bytes as they are: nothing is inserted into it.
 */
const tokenWrapping = [
  ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = layoutOf(view);
      }
      update(update: ViewUpdate) {
        if (update.docChanged) this.decorations = layoutOf(update.view);
      }
    },
    { decorations: (plugin) => plugin.decorations },
  ),
  EditorView.theme({
    '.cm-json-member, .cm-json-value': { display: 'inline-block', maxWidth: '100%', verticalAlign: 'top' },
    '.cm-json-value': { overflowWrap: 'anywhere' },
  }),
];

/**
 * Read-only code (JSON highlighted) in CodeMirror. Long lines wrap anywhere (`wrap="anywhere"`), or only
 * between JSON members (`wrap="tokens"`: for exact bytes, where a value cut in two would read as two).
 */
export function CodeView({ value, label, language = 'json', maxHeight = '24rem', wrap = 'anywhere' }: { value: string; label: string; language?: 'json' | 'text'; maxHeight?: string; wrap?: 'anywhere' | 'tokens' }) {
  const theme = useTheme((s) => s.resolved);
  const extensions = useMemo(
    () => [...(language === 'json' ? [json()] : []), EditorView.lineWrapping, ...(wrap === 'tokens' ? tokenWrapping : []), EditorView.contentAttributes.of({ 'aria-label': label })],
    [language, label, wrap],
  );
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
