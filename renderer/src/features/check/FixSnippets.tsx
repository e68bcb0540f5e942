import { useState } from 'react';
import { FIX_LANGUAGES, fixSnippetsFor, type FixLanguage } from '../../../../main/contract/check/checkFixes';
import { CodeView } from '../../ui/CodeView';
import { CopyButton } from '../../ui/CopyButton';
import { Segmented } from '../../ui/Segmented';

/** The fix of a check as code in the receiver's language, where the battery has code for it. */
export function FixSnippets({ checkId, fix }: { checkId: string; fix?: string | null }) {
  const [language, setLanguage] = useState<FixLanguage>('Node');
  const snippets = fixSnippetsFor(checkId, fix);
  const snippet = snippets?.find((s) => s.language === language);
  if (!snippets || !snippet) return null;
  return (
    <div className="border-t border-line">
      <div className="flex flex-wrap items-center gap-2 px-3 py-1.5">
        <span className="text-[11px] text-faint">In your server</span>
        <div className="ml-auto flex items-center gap-1">
          <Segmented<FixLanguage> label="Fix language" value={language} onChange={setLanguage} options={FIX_LANGUAGES.map((l) => ({ value: l, label: l }))} />
          <CopyButton text={snippet.code} label={`Copy ${language} fix`} showLabel={false} />
        </div>
      </div>
      <div className="border-t border-line">
        <CodeView value={snippet.code} label={`${language} fix`} language="text" maxHeight="16rem" />
      </div>
    </div>
  );
}
