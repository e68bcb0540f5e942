import { Card } from '../../ui/Card';
import { CopyButton } from '../../ui/CopyButton';
import { BodyModeSwitch, BodyView, useBodyMode } from './BodyView';

/** The body: the exact bytes every webhook received or is to receive (signed as they are), named by what happened to it. */
export function BodyCard({ body, label = 'Body delivered' }: { body: string; call: Record<string, unknown>; label?: string }) {
  const [mode, setMode] = useBodyMode();
  return (
    <Card
      title={label}
      aside={
        <>
          <BodyModeSwitch mode={mode} onChange={setMode} />
          <CopyButton text={body} label="Copy body" showLabel={false} />
        </>
      }
    >
      <BodyView text={body} mode={mode} label={label} />
    </Card>
  );
}
