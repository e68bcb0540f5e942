/**
 * The composer's state, kept across navigation. One call object is the truth; the raw editor's text and
 * each object field's text are kept as typed (so typing is never reformatted) and regenerated from the
 * call when the other side edits it.
 */
import { create } from 'zustand';
import type { MessageType } from '../../../main/contract/message/messageShapes';
import { readTypedJson } from '../../../main/contract/jsonText';
import { EXAMPLES } from '../lib/composeExamples';
import { formFields, keepsAcrossTypes, parseRaw, rawOf, withString } from '../lib/composeModel';

interface ComposeState {
  type: MessageType;
  call: Record<string, unknown>;
  rawText: string;
  rawError: string | null;
  /** Object fields' texts as typed, with their parse error when they do not parse. */
  objectTexts: Record<string, { text: string; error: string | null }>;
  /** Source name ('' = none). */
  source: string;
  /** Destination ids to send to directly (empty = by routing). */
  destinations: string[];
  /** Problems the server reported, by form key, until that field changes. */
  serverErrors: Record<string, string>;
  setType(type: MessageType): void;
  setString(key: string, value: string): void;
  setObjectText(key: string, text: string): void;
  setIntegrations(integrations: Record<string, boolean> | undefined): void;
  setRaw(text: string): void;
  loadExample(): void;
  setSource(source: string): void;
  toggleDestination(id: string): void;
  setServerError(key: string, message: string): void;
  reset(): void;
}

function objectTextsOf(type: MessageType, call: Record<string, unknown>): ComposeState['objectTexts'] {
  const texts: ComposeState['objectTexts'] = {};
  for (const f of formFields(type)) {
    if (f.kind === 'object') texts[f.key] = { text: call[f.key] === undefined ? '' : JSON.stringify(call[f.key], null, 2), error: null };
  }
  return texts;
}

/** The state after the form changed the call: raw text and object texts follow. */
function fromCall(type: MessageType, call: Record<string, unknown>, keepObjectTexts?: ComposeState['objectTexts']) {
  return { type, call, rawText: rawOf(type, call), rawError: null, objectTexts: keepObjectTexts ?? objectTextsOf(type, call) };
}

const initialType: MessageType = 'track';

export const useCompose = create<ComposeState>((set, get) => ({
  ...fromCall(initialType, EXAMPLES[initialType]),
  source: '',
  destinations: [],
  serverErrors: {},
  setType(type) {
    const { type: from, call } = get();
    set({ ...fromCall(type, keepsAcrossTypes(call, from, type)), serverErrors: {} });
  },
  setString(key, value) {
    const { type, call, objectTexts, serverErrors } = get();
    const { [key]: _cleared, ...rest } = serverErrors;
    set({ ...fromCall(type, withString(call, key, value), objectTexts), serverErrors: rest });
  },
  setObjectText(key, text) {
    const { type, call, objectTexts, serverErrors } = get();
    const { [key]: _cleared, ...rest } = serverErrors;
    const texts = { ...objectTexts };
    if (text.trim() === '') {
      const next = { ...call };
      delete next[key];
      texts[key] = { text, error: null };
      return set({ ...fromCall(type, next, texts), serverErrors: rest });
    }
    // Read as the raw editor and the API read JSON: a key given twice or a number a double does not keep is
    // named, not silently changed in the call (JSON.parse keeps the last key and rounds the number).
    const read = readTypedJson(text);
    if (!read.ok) {
      texts[key] = { text, error: read.message };
      return set({ objectTexts: texts });
    }
    const parsed = read.value;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      texts[key] = { text, error: 'must be a JSON object, e.g. {"plan": "pro"}' };
      return set({ objectTexts: texts });
    }
    texts[key] = { text, error: null };
    set({ ...fromCall(type, { ...call, [key]: parsed }, texts), serverErrors: rest });
  },
  setIntegrations(integrations) {
    const { type, call, objectTexts } = get();
    const next = { ...call };
    if (integrations && Object.keys(integrations).length) next['integrations'] = integrations;
    else delete next['integrations'];
    set(fromCall(type, next, objectTexts));
  },
  setRaw(text) {
    const parsed = parseRaw(text);
    if (!parsed.ok) return set({ rawText: text, rawError: parsed.message });
    const type = parsed.type ?? get().type;
    set({ type, call: parsed.call, rawText: text, rawError: null, objectTexts: objectTextsOf(type, parsed.call), serverErrors: {} });
  },
  loadExample() {
    const { type } = get();
    set({ ...fromCall(type, structuredClone(EXAMPLES[type])), serverErrors: {} });
  },
  setSource(source) {
    set({ source });
  },
  toggleDestination(id) {
    const { destinations } = get();
    set({ destinations: destinations.includes(id) ? destinations.filter((d) => d !== id) : [...destinations, id] });
  },
  setServerError(key, message) {
    set((s) => ({ serverErrors: { ...s.serverErrors, [key]: message } }));
  },
  reset() {
    set({ ...fromCall(get().type, {}), serverErrors: {} });
  },
}));
