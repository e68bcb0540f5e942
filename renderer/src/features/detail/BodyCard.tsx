import { Card } from '../../ui/Card';
import { CopyButton } from '../../ui/CopyButton';
import { BodyModeSwitch, BodyView, useBodyMode } from './BodyView';

/** The body as delivered: the exact bytes every webhook received (signed as they are). */
export function BodyCard({ body }: { body: string; call: Record<string, unknown> }) {
  const [mode, setMode] = useBodyMode();
  return (
    <Card
      title="Body delivered"
      aside={
        <>
          <BodyModeSwitch mode={mode} onChange={setMode} />
          <CopyButton text={body} label="Copy body" showLabel={false} />
        </>
      }
    >
      <BodyView text={body} mode={mode} label="Body delivered" />
    </Card>
  );
}
