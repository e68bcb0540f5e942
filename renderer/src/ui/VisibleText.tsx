import { visibleParts } from '../lib/visibleText';

/**
 * A name or identifier with its invisible and direction-changing characters shown as badges (⟨U+202E⟩), inside
 * a bidi isolate so that nothing in it reorders the text around it (lib/visibleText.ts).
 */
export function VisibleText({ text, className }: { text: string; className?: string }) {
  const parts = visibleParts(text);
  if (parts.length === 1 && typeof parts[0] === 'string') return <bdi className={className}>{text}</bdi>;
  return (
    <bdi className={className}>
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          p
        ) : (
          <span key={i} title={`Hidden character ${p.code} (${p.name}): shown, not applied`} className="mx-px rounded-sm bg-warn-soft px-0.5 font-mono text-[0.85em] text-warn">
            ⟨{p.code}⟩
          </span>
        ),
      )}
    </bdi>
  );
}
