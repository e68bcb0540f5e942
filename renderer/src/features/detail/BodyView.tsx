import { useState } from 'react';
import { CodeView } from '../../ui/CodeView';
import { Segmented } from '../../ui/Segmented';

export type BodyMode = 'pretty' | 'raw';

/** Indented JSON for reading; the exact bytes otherwise. Not JSON → always raw. */
export function prettyJson(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return null;
  }
}

export function useBodyMode(): [BodyMode, (mode: BodyMode) => void] {
  return useState<BodyMode>('pretty');
}

export function BodyModeSwitch({ mode, onChange }: { mode: BodyMode; onChange(mode: BodyMode): void }) {
  return (
    <Segmented
      label="Body view"
      value={mode}
      onChange={onChange}
      options={[
        { value: 'pretty', label: 'Pretty' },
        { value: 'raw', label: 'Raw' },
      ]}
    />
  );
}

export function BodyView({ text, mode, label }: { text: string; mode: BodyMode; label: string }) {
  const pretty = mode === 'pretty' ? prettyJson(text) : null;
  return <CodeView value={pretty ?? text} label={label} language={pretty !== null || prettyJson(text) !== null ? 'json' : 'text'} />;
}
