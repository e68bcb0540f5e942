/** `hookbench delete-user <userId>`: a deletion request against a running serve (docs/behaviour.md §8, §9). */
import type { DeletionRequest } from '../../contract/messages.js';
import type { SendMessageOutput } from '../../contract/api.js';
import { EXIT, jsonErrorLine, runCommand, type CliIO } from '../io.js';
import type { Destination } from '../../contract/destinations.js';
import { callApi, findRunningServe, listAll, sourceNamesOf } from '../remote.js';

export async function runDeleteUser(
  userId: string,
  opts: { source?: string[] | undefined; dataDir?: string | undefined; json?: boolean | undefined },
  io: CliIO,
): Promise<number> {
  // With --json every refusal is one JSON line on stdout, as send's and import's are: a script reads one stream.
  const sayJson = (message: string): number => {
    io.stdout(jsonErrorLine(message));
    return EXIT.usage;
  };
  return runCommand(io, 'delete-user', async () => {
    const { info } = findRunningServe(opts.dataDir);
    const result = await callApi<{ request: DeletionRequest; messages: SendMessageOutput[] }>(info, 'createDeletionRequest', {
      userId,
      ...(opts.source?.length ? { sources: opts.source } : {}),
    });
    if (!result.ok) {
      // The API names its field (`sources[1]`); here the user typed --source.
      let message = result.error.message.replace(/^sources\[\d+\]: /, '--source: ');
      // Other flags (check --only) take comma lists; --source is repeated instead, as a source name may hold a comma.
      const listed = /^sources\[(\d+)\]$/.exec(result.error.field ?? '');
      if (listed && opts.source?.[Number(listed[1])]?.includes(',')) message += ` (name each source with its own --source: --source ${opts.source[Number(listed[1])]!.split(',').map((n) => n.trim()).join(' --source ')})`;
      if (opts.json) io.stdout(jsonErrorLine(message, { code: result.error.code, field: result.error.field }));
      else io.stderr(`hookbench delete-user: ${message}\n`);
      return result.error.code === 'not_found' || result.error.code.startsWith('invalid') || result.error.code.startsWith('missing') ? EXIT.usage : EXIT.failed;
    }
    const { request, messages } = result.value;
    // A disabled destination gets no delete and none later: name it, so that nobody takes the request for complete.
    const listed = await listAll<Destination>((page) => callApi(info, 'listDestinations', page));
    const disabledOf = (sourceId: string | null) =>
      listed.ok ? listed.value.filter((d) => !d.enabled && sourceId !== null && d.sourceIds.includes(sourceId)).map((d) => d.name) : [];
    if (opts.json) {
      // A script reads the same as the lines: each message's disabled destinations, by name.
      io.stdout(`${JSON.stringify({ ...result.value, messages: messages.map((m) => ({ ...m, disabledDestinations: disabledOf(m.message.sourceId) })) })}\n`);
      return EXIT.ok;
    }
    const sourceName = await sourceNamesOf(info);
    const names = request.sourceIds.map(sourceName).sort((a, b) => a.localeCompare(b));
    io.stdout(
      `deletion request ${request.id} for user ${userId}: ${messages.length} delete message${messages.length === 1 ? '' : 's'}` +
        `${names.length ? ` (source${names.length === 1 ? '' : 's'} ${names.join(', ')})` : ''}\n`,
    );
    for (const m of messages) {
      const to = m.deliveries.map((d) => d.destinationName).join(', ');
      const from = m.message.sourceId === null ? '' : ` from ${sourceName(m.message.sourceId)}`;
      const disabled = disabledOf(m.message.sourceId);
      const skipped = !disabled.length ? '' : to ? `; not to ${disabled.join(', ')} (disabled)` : ` (disabled: ${disabled.join(', ')})`;
      io.stdout(`  message #${m.message.id}${from}: ${to ? `sending to ${to}` : `not sent: ${m.message.statusReason}`}${skipped}\n`);
    }
    // The command returns once the messages are recorded; whether a receiver took them (or fails and is
    // retried for hours) is only known later, so say where to look.
    const sending = messages.find((m) => m.deliveries.length > 0);
    if (sending) {
      const dataDir = opts.dataDir === undefined ? '' : ` --data-dir ${opts.dataDir}`;
      io.stdout(`the serve delivers them, retrying failures: follow one with hookbench show ${sending.message.id}${dataDir}\n`);
    }
    return EXIT.ok;
  }, opts.json ? sayJson : undefined);
}
