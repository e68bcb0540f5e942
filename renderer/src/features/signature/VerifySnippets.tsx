import { useState } from 'react';
import { CodeView } from '../../ui/CodeView';
import { CopyButton } from '../../ui/CopyButton';
import { Segmented } from '../../ui/Segmented';
import { SNIPPET_LABELS, SNIPPET_LANGUAGES, SNIPPETS, type SnippetLanguage } from './snippets';

/** Receiver code that verifies the raw body with a constant-time compare, in five languages, copyable. */
export function VerifySnippets() {
  const [language, setLanguage] = useState<SnippetLanguage>('node');
  const name = SNIPPET_LABELS[language];
  return (
    <div className="border-t border-line">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 px-3 py-2">
        <h4 className="text-xs font-semibold">Verify it in your server</h4>
        <span className="text-[11px] text-faint">HMAC-SHA1 of the raw body, constant-time compare</span>
        <div className="ml-auto flex items-center gap-1">
          <Segmented<SnippetLanguage> label="Snippet language" value={language} onChange={setLanguage} options={SNIPPET_LANGUAGES.map((l) => ({ value: l, label: SNIPPET_LABELS[l] }))} />
          <CopyButton text={SNIPPETS[language]} label={`Copy ${name} snippet`} showLabel={false} />
        </div>
      </div>
      <div className="border-t border-line">
        <CodeView value={SNIPPETS[language]} label={`${name} snippet`} language="text" maxHeight="16rem" />
      </div>
    </div>
  );
}
