import { visibleParts } from '../lib/visibleText';

/**
 * A name or identifier with its invisible and direction-changing characters shown as badges (⟨U+202E⟩), inside
 * a bidi isolate so that nothing in it reorders the text around it (lib/visibleText.ts). `title`: the whole
 * text on hover, where a truncating class may cut it.
 */
export function VisibleText({ text, className, title }: { text: string; className?: string; title?: string }) {
  const parts = visibleParts(text);
  if (parts.length === 1 && typeof parts[0] === 'string') return <bdi className={className} title={title}>{text}</bdi>;
  return (
    <bdi className={className} title={title}>
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
