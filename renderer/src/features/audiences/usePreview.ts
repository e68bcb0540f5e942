import { useState } from 'react';
import type { AudiencePreview, Rule } from '../../../../main/contract/audiences';
import type { ApiError } from '../../../../main/contract/result';
import { api } from '../../api/instance';
import { useRefresh } from '../../api/useRefresh';

export type PreviewState = { state: 'idle' } | { state: 'done'; value: AudiencePreview } | { state: 'error'; error: ApiError };

const DEBOUNCE_MS = 250;
/** Asked again this often: identify calls arriving change who matches. */
const REFRESH_MS = 3000;

/** previewAudience for what the form holds, a moment after typing stops, then every few seconds; the latest answer wins. */
export function usePreview(source: string | null, members: string[], rule: Rule | null): PreviewState {
  const [preview, setPreview] = useState<PreviewState>({ state: 'idle' });
  const key = JSON.stringify([source, members, rule]);
  useRefresh(
    key,
    (current) => {
      if (!source) return setPreview({ state: 'idle' });
      return api()
        .call('previewAudience', { source, ...(members.length ? { members } : {}), ...(rule ? { rule } : {}) }, { quiet: true })
        .then((r) => current() && setPreview(r.ok ? { state: 'done', value: r.value } : { state: 'error', error: r.error }));
    },
    { delayMs: DEBOUNCE_MS, everyMs: REFRESH_MS },
  );
  return preview;
}
