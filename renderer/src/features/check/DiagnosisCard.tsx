import { useState } from 'react';
import { ChevronDown, ChevronRight, Stethoscope } from 'lucide-react';
import type { CheckDiagnosis, CheckExchange } from '../../../../main/contract/check/check';
import { CheckEvidence } from './CheckEvidence';
import { FixSnippets } from './FixSnippets';

const acceptedProbe = (ex: CheckExchange) => ex.statusCode !== null && ex.statusCode >= 200 && ex.statusCode < 300;

/**
 * The root cause, above the checks: why the receiver refuses valid signatures, found by probing it with the
 * same request signed the mistaken ways; the probe it accepted (or that it accepted none) and the fix. Or,
 * for a run without a secret, that the receiver refuses unsigned requests. The
 * fix's code is one click away, so that the checks it explains stay in sight.
 */
export function DiagnosisCard({ diagnosis, probes }: { diagnosis: CheckDiagnosis; probes: CheckExchange[] }) {
  const [probesShown, setProbesShown] = useState(false);
  const [codeShown, setCodeShown] = useState(false);
  const accepted = probes.find(acceptedProbe);
  // Without a secret the receiver's code is not in question: the run is (it had nothing to sign with).
  const aboutTheRun = diagnosis.mistake === 'no-secret';
  const toggle = (shown: boolean, set: (v: boolean) => void, label: string) => (
    <button type="button" className="inline-flex items-center gap-1 text-xs text-accent hover:underline" aria-expanded={shown} onClick={() => set(!shown)}>
      {shown ? <ChevronDown aria-hidden className="size-3.5" /> : <ChevronRight aria-hidden className="size-3.5" />}
      {label}
    </button>
  );
  return (
    <section aria-label="Diagnosis" className="overflow-hidden rounded-lg border border-err/40 bg-panel">
      <div className="flex items-start gap-2.5 border-b border-err/20 bg-err-soft px-3 py-2.5">
        <Stethoscope aria-hidden className="mt-0.5 size-4 shrink-0 text-err" />
        <div className="flex min-w-0 flex-col gap-1">
          <h3 className="flex flex-wrap items-baseline gap-x-2 text-xs font-semibold tracking-wide text-err uppercase">
            Diagnosis
            <code className="font-mono text-[11px] font-medium tracking-normal normal-case" title={aboutTheRun ? 'The run sent its requests unsigned: no shared secret was given' : 'The signature mistake, as hookbench verify names it'}>
              {diagnosis.mistake}
            </code>
          </h3>
          <p className="text-[13px] font-medium">{diagnosis.title}</p>
        </div>
      </div>
      <div className="flex flex-col gap-2.5 px-3 py-3">
        {accepted ? (
          <>
            <p className="text-xs text-muted">Found by sending the same request again, signed the mistaken ways. The receiver accepted this one:</p>
            {!probesShown && <CheckEvidence evidence={[accepted]} heading={false} />}
          </>
        ) : null}
        {probes.length > (accepted ? 1 : 0) && (
          <div className="flex flex-col gap-1.5">
            {toggle(probesShown, setProbesShown, accepted ? `All ${probes.length} probes sent` : `The ${probes.length} probes it refused (the same request, signed the mistaken ways)`)}
            {probesShown && <CheckEvidence evidence={probes} heading={false} />}
          </div>
        )}
        <div className="flex flex-col gap-1.5 rounded-md border border-line bg-bg px-3 py-2">
          <h4 className="text-xs font-semibold">How to fix</h4>
          <p className="text-xs">{diagnosis.fix}</p>
          {!aboutTheRun && toggle(codeShown, setCodeShown, 'Verifying X-Signature, in Node, Python, Go, Ruby and PHP')}
        </div>
        {codeShown && !aboutTheRun && (
          <div className="overflow-hidden rounded-md border border-line bg-panel">
            <FixSnippets checkId="signature.raw-bytes" />
          </div>
        )}
      </div>
    </section>
  );
}
