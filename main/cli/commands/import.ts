/**
 * `hookbench import <file>`: a JSON lines or HAR export (as `hookbench export` and the UI write them) sent
 * again through the typed API's `importMessages`: all of it or, on the first bad entry, nothing.
 */
import { IMPORT_LIMITS, type ImportMessagesOutput } from '../../contract/importMessages.js';
import type { Overview } from '../../contract/overview.js';
import { EXIT, jsonErrorLine, readNamedFile, readStdin, runCommand, UsageError, utf8Text, type CliIO } from '../io.js';
import { openWorkbench, type Workbench } from '../workbench.js';

export interface ImportOptions {
  source?: string | undefined;
  keepMessageIds?: boolean | undefined;
  json?: boolean | undefined;
  dataDir?: string | undefined;
}

export async function runImport(file: string, options: ImportOptions, io: CliIO): Promise<number> {
  let wb: Workbench | null = null;
  const name = file === '-' ? 'stdin' : file;
  // With --json every refusal is one JSON line on stdout, the file's own problems (missing, empty, too large) too.
  const sayJson = (message: string): number => {
    io.stdout(jsonErrorLine(message));
    return EXIT.usage;
  };
  return runCommand(
    io,
    'import',
    async () => {
      try {
        const text = await readExport(file, io);
        if (text.trim() === '') throw new UsageError(`${name}: empty; give a JSON lines or HAR export`);
        wb = await openWorkbench(options.dataDir);
        const answer = await wb.call<ImportMessagesOutput>('importMessages', {
          text,
          ...(options.source !== undefined ? { source: options.source } : {}),
          ...(options.keepMessageIds ? { keepMessageIds: true } : {}),
        });
        if (!answer.ok) {
          // The API names the export's text `text`; here it is the file.
          // A user of the CLI chooses that source with a flag, not the panel's Route through.
          const message = answer.error.message
            .replace(/^text: /, `${name}: `)
            .replace(/^source: /, '--source: ')
            .replace(/; choose a source to route the import through$/, '; choose a source to route the import through with --source NAME');
          // With --json a script reads the refusal as it reads send's: one JSON line on stdout.
          if (options.json) io.stdout(jsonErrorLine(`${message}; nothing was imported`, { code: answer.error.code, field: answer.error.field }));
          else io.stderr(`hookbench import: ${message}; nothing was imported\n`);
          return ['internal', 'unavailable', 'conflict'].includes(answer.error.code) ? EXIT.failed : EXIT.usage;
        }
        const { format, imported } = answer.value;
        if (options.json) {
          io.stdout(`${JSON.stringify(answer.value)}\n`);
          return EXIT.ok;
        }
        const n = imported.length;
        io.stdout(`imported ${n} message${n === 1 ? '' : 's'} from ${name} (${format === 'har' ? 'HAR' : 'JSON lines'}) into ${wb.where}\n`);
        for (const m of imported) {
          const held = m.held.length ? `; held: ${m.held.map((d) => JSON.stringify(d)).join(', ')} ${m.held.length === 1 ? 'is' : 'are'} disabled` : '';
          io.stdout(`  #${m.id}${m.importedFrom !== null ? ` (was #${m.importedFrom})` : ''}  ${m.status}, ${m.deliveries} deliver${m.deliveries === 1 ? 'y' : 'ies'}${held}\n`);
        }
        const off = [...new Set(imported.flatMap((m) => m.held))];
        if (off.length) io.stdout(`deliveries to a disabled destination wait, queued, until it is enabled (${off.map((d) => JSON.stringify(d)).join(', ')}: Destinations, or updateDestination with enabled: true)\n`);
        // A paused serve holds every copy, as History's import notice says; without this line they look stuck.
        const sending = imported.reduce((sum, m) => sum + m.deliveries - m.held.length, 0);
        if (wb.live && sending > 0) {
          const overview = await wb.call<Overview>('getOverview', {});
          if (overview.ok && overview.value.paused) {
            io.stdout(`forwarding is paused: ${sending} deliver${sending === 1 ? 'y waits' : 'ies wait'}, queued, until it is resumed (the Forwarding switch in the top bar, or resumeForwarding)\n`);
          }
        }
        if (!wb.live && imported.some((m) => m.deliveries > 0)) io.stdout(`no serve runs there: the deliveries wait, queued, until hookbench serve --data-dir ${wb.dataDir} starts\n`);
        return EXIT.ok;
      } finally {
        await wb?.close();
      }
    },
    options.json ? sayJson : undefined,
  );
}

/**
 * The file's text (or stdin's with `-`): a regular file, or stdin, of at most what one export writes
 * (IMPORT_LIMITS.textBytes), and UTF-8, through the same bounded read and decoder as every named file.
 */
async function readExport(file: string, io: CliIO): Promise<string> {
  const maxBytes = IMPORT_LIMITS.textBytes;
  const bytes = file === '-' ? await readStdin(io, '<file> -', maxBytes) : readNamedFile(file, maxBytes);
  return utf8Text(bytes, file === '-' ? 'stdin' : file);
}

