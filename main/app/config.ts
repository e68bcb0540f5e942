/**
 * Config as code (docs/behaviour.md §10): a JSON file of sources, destinations and receivers, applied at start
 * and matched by name (created or updated; objects not in the file are kept). The whole file is checked
 * first and applied in one transaction: an error names its path and nothing is applied half-way.
 * Webhook URLs may name receivers (`receiver:<name>`): they are stored as such and resolved at attempt time.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { configSchema, type HookbenchConfig } from '../contract/config.js';
import { err, ok, type ApiError, type Result } from '../contract/result.js';
import { combineErrors, eachProblem, issuesToErrors } from '../contract/schemas.js';
import { caretSnippet, jsonProblemWhere } from '../domain/jsonText.js';
import { parseUserJson } from '../domain/userJson.js';
import { tooDeepError, tooDeepField } from '../domain/jsonDepth.js';
import { LIMITS } from '../contract/message/messageShapes.js';
import { FILE_LIMITS, FileReadError, readBoundedText } from '../platform/boundedFile.js';
import type { Core } from './createCore.js';

export interface ApplySummary {
  created: string[];
  updated: string[];
}

export interface ConfigHooks {
  /** Creates or updates the file's receivers (by name); errors name `receivers[i]...`. */
  applyReceivers?: (receivers: HookbenchConfig['receivers']) => Result<ApplySummary>;
}

export function readConfigFile(path: string): Result<HookbenchConfig> {
  let text: string;
  try {
    text = readBoundedText(path, FILE_LIMITS.config);
  } catch (e) {
    return err({ code: 'invalid_config', field: 'config', message: `config ${e instanceof FileReadError ? e.message : `${path}: cannot read (${String(e)})`}` });
  }
  const read = parseUserJson(text);
  if (!read.ok) {
    const p = read.error;
    return err({ code: 'invalid_config', field: 'config', message: `config ${path}: ${jsonProblemWhere(p)}: ${p.problem}\n${caretSnippet(text, p)}` });
  }
  const json = read.value;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    const got = json === null ? 'null' : Array.isArray(json) ? 'an array' : `a ${typeof json}`;
    return err({ code: 'invalid_config', field: 'config', message: `config ${path}: must be one JSON object ({"sources": [...], "destinations": [...], "receivers": [...]}), not ${got}` });
  }
  // Nothing in a config file nests as deep as a call may: deeper is refused before anything walks it.
  const tooDeep = tooDeepField(json as Record<string, unknown>, LIMITS.maxDepth);
  if (tooDeep) {
    const e = tooDeepError(tooDeep);
    return err({ ...e, code: 'invalid_config', message: `config ${path}: ${e.message}` });
  }
  // Every problem at once: a person fixes the file in one pass instead of one error per start.
  const parsed = configSchema.safeParse(json);
  if (parsed.success) return ok(withCaFilesFrom(dirname(resolve(path)), parsed.data));
  const problem = combineErrors(issuesToErrors(parsed.error.issues, [], configSchema));
  return err({ ...problem, code: 'invalid_config', message: `config ${path}: ${problem.message}` });
}

/**
 * A relative caFile in a config file names a file beside the config file, wherever serve was started: it is
 * kept as that absolute path, which errors then name.
 */
function withCaFilesFrom(folder: string, config: HookbenchConfig): HookbenchConfig {
  return { ...config, destinations: config.destinations.map((d) => (d.caFile && !isAbsolute(d.caFile) ? { ...d, caFile: resolve(folder, d.caFile) } : d)) };
}

export function applyConfig(core: Core, config: HookbenchConfig, hooks: ConfigHooks = {}): Result<ApplySummary> {
  return core.atomically(() => {
    const summary: ApplySummary = { created: [], updated: [] };
    // Every entry is tried, so that one start names all the problems; any problem rolls the whole file back.
    const problems: ApiError[] = [];
    // `webhooks[5]: at most 5 webhooks` becomes `destinations[0].webhooks[5]: at most 5 webhooks`.
    const prefixed = (path: string, e: ApiError): ApiError => {
      const field = e.field ? `${path}.${e.field}` : path;
      const message = e.field && e.message.startsWith(`${e.field}:`) ? `${path}.${e.message}` : `${path}: ${e.message}`;
      return { ...e, field, message };
    };

    if (config.receivers.length) {
      if (!hooks.applyReceivers) return err({ code: 'invalid_config', field: 'receivers', message: 'receivers: this Hookbench runs no mock receiver' });
      const r = hooks.applyReceivers(config.receivers);
      // Each problem on a line of its own, as a destination's: none hidden behind "(and 1 more problem)".
      if (!r.ok) problems.push(...eachProblem(r.error));
      else {
        summary.created.push(...r.value.created);
        summary.updated.push(...r.value.updated);
      }
    }

    for (const [i, s] of config.sources.entries()) {
      const path = `sources[${i}]`;
      const existing = core.findSource(s.name);
      const result = existing
        ? core.updateSource({ id: existing.id, patch: { kind: s.kind, ...(s.writeKey ? { writeKey: s.writeKey } : {}) } })
        : core.createSource(s);
      if (!result.ok) problems.push(prefixed(path, result.error));
      else (existing ? summary.updated : summary.created).push(`source ${s.name}`);
    }

    // Every owner's: a config file naming a reserved name updates that destination rather than failing to create it.
    const destinations = core.listDestinations({ owner: 'all' });
    if (!destinations.ok) return destinations;
    for (const [i, d] of config.destinations.entries()) {
      const path = `destinations[${i}]`;
      const existing = destinations.value.items.find((x) => x.name === d.name);
      const result = existing ? core.updateDestination({ id: existing.id, patch: d }) : core.createDestination(d);
      if (!result.ok) {
        // Each of the destination's problems on a line of its own. Update errors say patch.<field>; in a config
        // file the path is the entry's.
        for (const e of eachProblem(result.error)) {
          const field = e.field?.replace(/^patch\./, '');
          problems.push(prefixed(path, { ...e, ...(field ? { field } : {}), message: e.message.replace(/^patch\./, '') }));
        }
        continue;
      }
      (existing ? summary.updated : summary.created).push(`destination ${d.name}`);
    }
    return problems.length ? err(combineErrors(problems)) : ok(summary);
  });
}
