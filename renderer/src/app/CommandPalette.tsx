import { Command } from 'cmdk';
import { useState } from 'react';
import { CornerDownLeft } from 'lucide-react';
import type { MessageType } from '../../../main/contract/message/messageShapes';
import { api } from '../api/instance';
import { summarize } from '../api/summaries';
import { useCompose } from '../stores/compose';
import { useEngine } from '../stores/engine';
import { useLive } from '../stores/live';
import { focusAfterPalette, usePalette } from '../stores/palette';
import { formatHash, opensMessages, useRouter, type View } from '../stores/router';
import { screenElement } from './screenElement';
import { useToasts } from '../stores/toasts';
import { useDensity, type Density } from '../stores/density';
import { TIME_STEPS } from '../lib/timeSteps';
import { messageIdIn, paletteActions, paletteScore, type PaletteAction } from './paletteActions';
import { useTheme, type ThemeChoice } from '../stores/theme';

async function copySetting(key: 'uiUrl' | 'ingestUrl', what: string): Promise<void> {
  const result = await api().call('getSettings', {});
  const value = result.ok ? result.value[key] : null;
  if (!value) return;
  await navigator.clipboard.writeText(value);
  useToasts.getState().push({ tone: 'success', title: 'Copied', message: `${what}: ${value}` });
}

/**
 * Opens the Signature panel: the newest signed attempt of the open message, or of the newest message that
 * has one; a notice says so when there is none yet.
 */
async function openSignaturePanel(messageId: number | null, view: 'live' | 'history'): Promise<void> {
  let ids: number[] = messageId !== null ? [messageId] : [];
  if (messageId === null) {
    const page = await api().call('listMessages', { limit: 50 });
    ids = page.ok ? page.value.items.filter((m) => m.attempts > 0).map((m) => m.id) : [];
  }
  for (const id of ids) {
    const detail = await api().call('getMessage', { id });
    if (!detail.ok) continue;
    const attempt = [...detail.value.attempts].reverse().find((a) => a.signature !== null) ?? detail.value.attempts.at(-1);
    if (!attempt) continue;
    useRouter.getState().navigate({ view, messageId: id, attemptId: attempt.id });
    scrollToWhenShown('[aria-label="Signature"]');
    return;
  }
  useToasts.getState().push({ tone: 'info', title: 'No attempt yet', message: messageId !== null ? `Message ${messageId} has no attempt yet: its Signature panel shows once one is sent.` : 'No message has been sent to a webhook yet: send one (Compose) and its attempt has a Signature panel.' });
}

/** Scrolls to an element once it is rendered (it mounts after the route changes), giving up after a second of frames. */
function scrollToWhenShown(selector: string, frames = 60): void {
  const el = document.querySelector(selector);
  if (el) return el.scrollIntoView({ block: 'start' });
  if (frames > 0) requestAnimationFrame(() => scrollToWhenShown(selector, frames - 1));
}

/** Runs one palette action (ids from paletteActions). */
async function run(id: string): Promise<void> {
  const navigate = useRouter.getState().navigate;
  const [kind, arg = ''] = id.split(':') as [string, string | undefined];
  const engine = useEngine.getState();
  const messageId = useRouter.getState().route.messageId;
  switch (kind) {
    case 'view':
      return navigate({ view: arg as View });
    case 'create':
      return arg === 'destination' ? navigate({ view: 'destinations', sub: ['new'] }) : navigate({ view: 'audiences', sub: ['new', arg] });
    case 'time': {
      const step = TIME_STEPS.find((s) => s.action === arg);
      if (step) return engine.advance(step.ms, step.action);
      return arg === 'next' ? engine.nextRetry() : engine.reset();
    }
    case 'forwarding':
      return engine.setPaused(arg === 'pause');
    case 'compose':
      useCompose.getState().setType(arg as MessageType);
      return navigate({ view: 'compose' });
    case 'message': {
      if (messageId === null) return;
      if (arg === 'retry') await api().call('retryNow', { id: messageId });
      else if (arg === 'cancel') await api().call('cancelMessage', { id: messageId });
      else {
        const result = await api().call('replayMessage', { id: messageId, keepMessageId: false });
        if (result.ok) {
          useLive.getState().addNew(summarize(result.value.message, result.value.deliveries));
          navigate({ view: 'live', messageId: result.value.message.id });
        }
      }
      return;
    }
    case 'signature':
      return openSignaturePanel(messageId, useRouter.getState().route.view === 'history' ? 'history' : 'live');
    case 'theme':
      return useTheme.getState().setChoice(arg as ThemeChoice);
    case 'density':
      return useDensity.getState().setDensity(arg as Density);
    case 'copy':
      return arg === 'ui' ? copySetting('uiUrl', 'UI link') : copySetting('ingestUrl', 'Ingestion URL');
  }
}

const GROUPS: PaletteAction['group'][] = ['Go to', 'Message', 'Engine', 'Compose', 'Appearance', 'Copy'];

/**
 * ⌘K: every screen and action, found by typing words (cmdk, paletteScore). Typing a number offers to open that
 * message. Its own chunk: PaletteLauncher opens it (Ctrl/⌘+K) and loads it.
 */
export function CommandPalette() {
  const { open, setOpen } = usePalette();
  const [search, setSearch] = useState('');
  const route = useRouter((s) => s.route);
  const paused = useEngine((s) => s.paused);
  const moved = useEngine((s) => (s.clock?.offsetMs ?? 0) !== 0);
  // As the top bar's Next retry: offered only while a retry is waiting and forwarding runs (advanceToNextRetry refuses otherwise).
  const retryWaiting = useEngine((s) => s.overview !== null && s.overview.nextDueAt !== null && !s.paused);
  const actions = open ? paletteActions({ openMessageId: opensMessages(route.view) ? route.messageId : null, forwardingPaused: paused, clockMoved: moved, retryWaiting, hasIngestUrl: true }) : [];
  const wanted = messageIdIn(search);
  /**
   * Closes the palette and does what was chosen. Focus then goes to the screen it opened (its main landmark),
   * or back where it was when the palette opened; an entry that opens a screen once the server has answered
   * (Replay) moves it there then.
   */
  const act = (what: () => Promise<void> | void) => {
    const before = formatHash(useRouter.getState().route);
    const moved = () => formatHash(useRouter.getState().route) !== before;
    setOpen(false);
    setSearch('');
    const done = Promise.resolve(what());
    let focused: 'screen' | 'back' | null = null;
    focusAfterPalette(() => {
      focused = moved() ? 'screen' : 'back';
      return focused === 'screen' ? screenElement() : null;
    });
    void done.then(() => {
      if (focused === 'back' && moved()) screenElement()?.focus();
    });
  };
  const choose = (id: string) => act(() => run(id));
  return (
    <Command.Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) return;
        setSearch('');
        focusAfterPalette();
      }}
      label="Command palette"
      // Ranked by whole words: cmdk's own filter matches letters in order ("hist" found "Advance the clock +1 h").
      filter={paletteScore}
      loop
      overlayClassName="fixed inset-0 z-50 bg-black/30"
      contentClassName="fixed top-[12vh] left-1/2 z-50 w-[min(36rem,calc(100vw-2rem))] -translate-x-1/2 overflow-hidden rounded-xl border border-line bg-panel text-fg shadow-2xl"
    >
      <Command.Input
        value={search}
        onValueChange={setSearch}
        placeholder="Go to a screen, travel in time, compose… or type a message number"
        aria-label="Command"
        className="h-11 w-full border-b border-line bg-transparent px-4 text-[13px] outline-none placeholder:text-faint"
      />
      <Command.List className="max-h-[min(24rem,60vh)] overflow-y-auto p-1.5 [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-[10px] [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:tracking-wide [&_[cmdk-group-heading]]:text-faint [&_[cmdk-group-heading]]:uppercase">
        <Command.Empty className="px-3 py-6 text-center text-xs text-muted">
          {/* "retry" finds something only while a message is open: the hint offers what this context has. */}
          Nothing matches. Try a screen's name, “+1 h”, {opensMessages(route.view) && route.messageId !== null ? '“retry” ' : ''}or a message number.
        </Command.Empty>
        {wanted !== null && (
          <Command.Group heading="Message">
            <Item id={`open:${wanted}`} label={`Open message ${wanted}`} keywords={[search]} onSelect={() => act(() => useRouter.getState().navigate({ view: 'live', messageId: wanted }))} />
          </Command.Group>
        )}
        {GROUPS.map((group) => {
          const items = actions.filter((a) => a.group === group);
          if (!items.length) return null;
          return (
            <Command.Group key={group} heading={group}>
              {items.map((a) => (
                <Item key={a.id} id={a.id} label={a.label} keywords={a.keywords} hint={a.hint} onSelect={() => choose(a.id)} />
              ))}
            </Command.Group>
          );
        })}
      </Command.List>
    </Command.Dialog>
  );
}

function Item({ label, keywords, hint, onSelect }: { id?: string; label: string; keywords?: string[] | undefined; hint?: string | undefined; onSelect(): void }) {
  return (
    <Command.Item
      value={label}
      keywords={keywords ?? []}
      onSelect={onSelect}
      className="group flex h-8 cursor-default items-center gap-2 rounded-md px-2 text-[13px] text-fg data-[selected=true]:bg-selected"
    >
      <span className="min-w-0 flex-1 truncate">{label}</span>
      {hint && <kbd className="rounded border border-line bg-panel-2 px-1.5 font-mono text-[11px] text-muted">{hint}</kbd>}
      <CornerDownLeft aria-hidden className="size-3.5 text-faint opacity-0 group-data-[selected=true]:opacity-100" />
    </Command.Item>
  );
}
