/**
 * Every hostile input against every face that takes it, from two tables: the inputs (a FIFO without a writer,
 * /dev/zero or an endless stdin, a 1 GiB sparse file, a directory, invalid UTF-8, a number beyond a double,
 * nesting 100,000 deep, a key given twice) and the faces that read what a user names (the config file, a
 * caFile, check --scenarios, import FILE and stdin, send --data @file and stdin, the typed API's import).
 * Each pair must give the one clear error of that input, in the same words on every face, with the face's
 * flag or field, and exit as a usage error. A new face is one row of FACES; a new input one row of INPUTS.
 * The places a user points output at (export --out, check --junit) have their own table: a device, a FIFO,
 * a symbolic link, a directory are refused, never renamed over, and export > /dev/full fails in one line.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import { createCore } from '../../../main/app/createCore.js';
import type { CliIO } from '../../../main/cli/io.js';
import { runCli } from '../../../main/cli/program.js';
import { dispatch } from '../../../main/contract/dispatch.js';
import { IMPORT_LIMITS } from '../../../main/contract/importMessages.js';
import { captureIO } from '../../helpers/cliIO.js';
import { must, newCore, newDataDir, newReceiver } from '../../helpers/harness.js';

// ---------------------------------------------------------------- the hostile inputs

type Hostile = 'fifo' | 'endless' | 'sparse-1g' | 'directory' | 'invalid-utf8' | 'beyond-double' | 'beyond-digits' | 'nested-100k' | 'repeated-key';

/**
 * The value of a field named `amount` in each face's own document; for the repeated key, the text after the
 * first `"amount":` (so the key comes twice). Null: the input is not a document (it is the file itself).
 */
const FRAGMENTS: Record<Hostile, Buffer | null> = {
  fifo: null,
  endless: null,
  'sparse-1g': null,
  directory: null,
  'invalid-utf8': Buffer.from([0x22, 0x61, 0xff, 0x22]),
  'beyond-double': Buffer.from('1e400'),
  'beyond-digits': Buffer.from('9007199254740993'),
  'nested-100k': Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`),
  'repeated-key': Buffer.from('1, "amount": 2'),
};

/** The one error each input gets, the same on every face. */
const SAYS: Record<Hostile, RegExp> = {
  fifo: /is a FIFO \(named pipe\), not a regular file/,
  endless: /\/dev\/zero is a character device, not a regular file|stdin is over the limit of [\d,]+ bytes \([\d,]+ read so far\)/,
  'sparse-1g': /is 1,073,741,824 bytes, over the limit of [\d,]+ bytes/,
  directory: /is a directory, not a regular file/,
  'invalid-utf8': /invalid UTF-8 at byte \d+ \(0xff\), line \d+, column \d+/,
  'beyond-double': /amount: a number beyond the range of a double \(±1\.8e308\) would be delivered as null/,
  'beyond-digits': /amount: 9007199254740993 would be delivered as 9007199254740992 \(a JSON number is a double/,
  // Each face says it with the field and its own limit (a call's: 64 levels, as the typed API does).
  'nested-100k': /: nests 100,?\d{3} levels > 64/,
  'repeated-key': /the key "amount" appears twice in one object/,
};

const ALL: Hostile[] = ['fifo', 'endless', 'sparse-1g', 'directory', 'invalid-utf8', 'beyond-double', 'beyond-digits', 'nested-100k', 'repeated-key'];
/** What a PEM file can be made of: no JSON in it. */
const FILE_ONLY: Hostile[] = ['fifo', 'endless', 'sparse-1g', 'directory', 'invalid-utf8'];
/** What stdin can be: a stream, never a FIFO path, a sparse file or a directory. */
const STREAM: Hostile[] = ['endless', 'invalid-utf8', 'beyond-double', 'beyond-digits', 'nested-100k', 'repeated-key'];
/** What a JavaScript string given to the typed API can hold. */
const TEXT: Hostile[] = ['beyond-double', 'beyond-digits', 'nested-100k', 'repeated-key'];

/** A face's document with `fragment` as the value of `amount`. */
const doc = (before: string, fragment: Buffer, after: string): Buffer => Buffer.concat([Buffer.from(before), fragment, Buffer.from(after)]);

/** Chunks of zeros, forever; counts what was taken, to prove a face stops reading. */
function endlessStdin(): { stream: AsyncIterable<Buffer>; chunks: () => number } {
  let chunks = 0;
  const chunk = Buffer.alloc(64 * 1024);
  return {
    stream: (async function* () {
      for (;;) {
        chunks++;
        yield chunk;
      }
    })(),
    chunks: () => chunks,
  };
}

function ioWithStdin(stdin: AsyncIterable<Buffer> | undefined): { io: CliIO; out: () => string; err: () => string } {
  const c = captureIO();
  return { io: { ...c.io, stdin }, out: c.out, err: c.err };
}

/** A data dir with a database and a source `web` to import through: made by a core that is closed again. */
async function dataDirWithSource(): Promise<string> {
  const dataDir = newDataDir();
  const core = createCore({ dataDir, autoStart: false });
  must(core.createSource({ name: 'web', kind: 'web' }));
  await core.close();
  return dataDir;
}

interface Given {
  /** The file the face reads (file faces). */
  path?: string;
  /** What the face reads from stdin (stdin faces). */
  stdin?: AsyncIterable<Buffer>;
}

interface Face {
  name: string;
  takes: readonly Hostile[];
  via: 'file' | 'stdin' | 'text';
  /** The face's own document with a field `amount` holding the fragment. */
  document: (fragment: Buffer) => Buffer;
  /** The flag or field every error of this face names. */
  names: string;
  /** How a refusal ends: an exit status (CLI) or the error codes it may have (typed API). */
  refused: number | readonly string[];
  run(given: Given): Promise<{ refused: number | string | 'accepted'; said: string }>;
}

const cli = async (argv: string[], stdin?: AsyncIterable<Buffer>) => {
  const c = ioWithStdin(stdin);
  const code = await runCli(argv, c.io);
  return { refused: code, said: c.err() };
};

const api = async (command: string, input: Record<string, unknown>) => {
  const core = newCore({ autoStart: false });
  must(core.createSource({ name: 'web', kind: 'web' }));
  const answer = await dispatch(createCommandHandlers(core), command, input);
  return answer.ok ? { refused: 'accepted' as const, said: '' } : { refused: answer.error.code, said: `${answer.error.field ?? ''}: ${answer.error.message}` };
};

const PEM = (fragment: Buffer) => doc('-----BEGIN CERTIFICATE-----\n', fragment, '\n-----END CERTIFICATE-----\n');
const CONFIG = (fragment: Buffer) => doc('{"destinations": [{"name": "d", "url": "http://127.0.0.1:9/h", "retry": {"amount": ', fragment, '}}]}\n');
const SCENARIOS = (fragment: Buffer) => doc('{"scenarios": [{"id": "a.b", "title": "t", "body": {"amount": ', fragment, '}}]}\n');
const EXPORT_LINE = (fragment: Buffer) => doc('{"message": {"id": 1, "type": "track", "call": {"userId": "u", "event": "E", "properties": {"amount": ', fragment, '}}}, "deliveries": []}\n');
const CALL = (fragment: Buffer) => doc('{"userId": "u", "event": "E", "properties": {"amount": ', fragment, '}}');

const FACES: Face[] = [
  {
    name: 'serve --config FILE',
    takes: ALL,
    via: 'file',
    document: CONFIG,
    names: 'config',
    refused: 2,
    run: async ({ path }) => {
      const c = ioWithStdin(undefined);
      // Stopped before it starts: were the file taken, serve would start and stop at once (exit 0).
      const stop = new AbortController();
      stop.abort();
      const code = await runCli(['serve', '--config', path!, '--data-dir', newDataDir(), '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0'], { ...c.io, signal: stop.signal });
      return { refused: code, said: c.err() };
    },
  },
  {
    name: "a destination's caFile (typed API createDestination)",
    takes: FILE_ONLY,
    via: 'file',
    document: PEM,
    names: 'caFile',
    refused: ['invalid_config'],
    run: ({ path }) => api('createDestination', { name: 'd', url: 'https://127.0.0.1:9/h', caFile: path }),
  },
  {
    name: 'check --ca-file FILE',
    takes: FILE_ONLY,
    via: 'file',
    document: PEM,
    names: '--ca-file',
    refused: 2,
    run: ({ path }) => cli(['check', 'https://127.0.0.1:9/h', '--ca-file', path!, '--data-dir', newDataDir()]),
  },
  {
    name: 'check --scenarios FILE',
    takes: ALL,
    via: 'file',
    document: SCENARIOS,
    names: '--scenarios',
    refused: 2,
    run: ({ path }) => cli(['check', 'http://127.0.0.1:9/h', '--scenarios', path!, '--data-dir', newDataDir()]),
  },
  {
    name: 'import FILE',
    takes: ALL,
    via: 'file',
    document: EXPORT_LINE,
    names: 'hookbench import: ',
    refused: 2,
    run: async ({ path }) => cli(['import', path!, '--source', 'web', '--data-dir', await dataDirWithSource()]),
  },
  {
    name: 'import - (stdin)',
    takes: STREAM,
    via: 'stdin',
    document: EXPORT_LINE,
    names: 'hookbench import: ',
    refused: 2,
    run: async ({ stdin }) => cli(['import', '-', '--source', 'web', '--data-dir', await dataDirWithSource()], stdin),
  },
  {
    name: 'send --data @FILE',
    takes: ALL,
    via: 'file',
    document: CALL,
    names: '--data',
    refused: 2,
    run: ({ path }) => cli(['send', 'track', '--to', 'http://127.0.0.1:9/h', '--data', `@${path}`, '--data-dir', newDataDir()]),
  },
  {
    name: 'send --data @- (stdin)',
    takes: STREAM,
    via: 'stdin',
    document: CALL,
    names: '--data',
    refused: 2,
    run: ({ stdin }) => cli(['send', 'track', '--to', 'http://127.0.0.1:9/h', '--data', '@-', '--data-dir', newDataDir()], stdin),
  },
  {
    name: 'the typed API importMessages (text)',
    takes: TEXT,
    via: 'text',
    document: EXPORT_LINE,
    names: 'text',
    refused: ['invalid_input', 'nesting_too_deep'],
    run: ({ stdin }) => streamText(stdin!).then((text) => api('importMessages', { text, source: 'web' })),
  },
];

async function streamText(stream: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

/** The input as the face takes it: a file at a path, or a stream. */
function make(face: Face, hostile: Hostile, dir: string): { given: Given; read?: () => number } {
  if (face.via !== 'file') {
    if (hostile === 'endless') {
      const endless = endlessStdin();
      return { given: { stdin: endless.stream }, read: endless.chunks };
    }
    const bytes = face.document(FRAGMENTS[hostile]!);
    return {
      given: {
        stdin: (async function* () {
          yield bytes;
        })(),
      },
    };
  }
  const path = join(dir, `${hostile}.input`);
  switch (hostile) {
    case 'fifo':
      execFileSync('mkfifo', [path]);
      break;
    case 'endless':
      return { given: { path: '/dev/zero' } };
    case 'sparse-1g':
      // A hole, not written: the file says it is 1 GiB and takes no room.
      writeFileSync(path, '');
      truncateSync(path, 1024 ** 3);
      break;
    case 'directory':
      mkdirSync(path);
      break;
    default:
      writeFileSync(path, face.document(FRAGMENTS[hostile]!));
  }
  return { given: { path } };
}

describe('every hostile input against every face that takes it', () => {
  const pairs = FACES.flatMap((face) => face.takes.map((hostile) => [face.name, hostile, face] as const));

  it.each(pairs)('%s, given %s: the one clear error, naming the face and the input', async (_name, hostile, face) => {
    const dir = newDataDir();
    const { given, read } = make(face, hostile, dir);
    const { refused, said } = await face.run(given);
    if (typeof face.refused === 'number') expect(refused, said).toBe(face.refused);
    else expect(face.refused, said).toContain(refused);
    const first = said.split('\n')[0]!;
    expect(first).toMatch(SAYS[hostile]);
    expect(first).toContain(face.names);
    // The file is named when the file itself is refused; what is in it, by its field.
    if (given.path && FRAGMENTS[hostile] === null) expect(first).toContain(given.path);
    // One line of words (a JSON error adds the line and a caret under it), never a stack trace.
    expect(said).not.toMatch(/\n\s+at /);
    // An endless stream is given up once past the bound, not held.
    if (read) expect(read()).toBeLessThanOrEqual(IMPORT_LIMITS.textBytes / (64 * 1024) + 2);
  });

  it('covers every input on some face, and every face takes each input it can', () => {
    const covered = new Set(FACES.flatMap((f) => f.takes));
    expect([...covered].sort()).toEqual([...ALL].sort());
    for (const face of FACES.filter((f) => f.via === 'file' && f.document !== PEM)) expect(face.takes, face.name).toEqual(ALL);
    for (const face of FACES.filter((f) => f.via === 'stdin')) expect(face.takes, face.name).toEqual(STREAM);
  });
});

describe('a relative caFile', () => {
  it("in a config file is the file beside the config file, and an error names the absolute path looked at", async () => {
    const folder = newDataDir();
    mkdirSync(join(folder, 'certs'));
    const config = join(folder, 'hookbench.config.json');
    writeFileSync(config, JSON.stringify({ destinations: [{ name: 'd', url: 'https://127.0.0.1:9/h', caFile: 'certs/missing.pem' }] }));
    const c = ioWithStdin(undefined);
    const stop = new AbortController();
    stop.abort();
    const code = await runCli(['serve', '--config', config, '--data-dir', newDataDir(), '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0'], { ...c.io, signal: stop.signal });
    expect(code).toBe(2);
    expect(c.err()).toContain(`destinations[0].caFile: ${join(folder, 'certs', 'missing.pem')} does not exist`);
  });

  it('given to the typed API names the absolute path and what it was resolved against', async () => {
    const answer = await dispatch(createCommandHandlers(newCore({ autoStart: false })), 'createDestination', { name: 'd', url: 'https://127.0.0.1:9/h', caFile: 'no-such-ca.pem' });
    expect(answer).toMatchObject({ ok: false, error: { field: 'caFile', message: `caFile: ${join(process.cwd(), 'no-such-ca.pem')} ("no-such-ca.pem" resolved against ${process.cwd()}) does not exist` } });
  });
});

// ---------------------------------------------------------------- where a user points output

const isRoot = process.getuid?.() === 0;

type Target = 'device' | 'fifo' | 'symlink' | 'directory';

interface OutputFace {
  name: string;
  flag: string;
  /** Writes to `path`, replacing what is there if the face can. */
  run(path: string): Promise<{ code: number; said: string }>;
}

/** A data dir with one message in it, for export; closed, so export opens it itself. */
async function dataDirWithAMessage(): Promise<string> {
  const dataDir = newDataDir();
  const core = createCore({ dataDir, autoStart: false });
  must(core.sendMessage({ type: 'track', call: { userId: 'u', event: 'E' }, destinations: [] }));
  await core.close();
  return dataDir;
}

const OUTPUT_FACES: OutputFace[] = [
  {
    name: 'export --out FILE --force',
    flag: '--out',
    run: async (path) => {
      const c = captureIO();
      const code = await runCli(['export', '--out', path, '--force', '--format', 'json', '--data-dir', await dataDirWithAMessage()], c.io);
      return { code, said: c.err() };
    },
  },
  {
    name: 'check --junit FILE',
    flag: '--junit',
    run: async (path) => {
      const r = await newReceiver();
      const c = captureIO();
      const code = await runCli(['check', r.url, '--only', 'status.valid-request', '--junit', path, '--data-dir', newDataDir()], c.io);
      return { code, said: c.err() };
    },
  },
];

/** Where the output is pointed; `kind` is how the error names it. A device node of our own, so a mistake could never replace /dev/full. */
function target(which: Target, dir: string): { path: string; kind: string; keep?: () => void } {
  const path = join(dir, `out-${which}`);
  switch (which) {
    case 'device':
      execFileSync('mknod', [path, 'c', '1', '7']);
      return { path, kind: 'a character device' };
    case 'fifo':
      execFileSync('mkfifo', [path]);
      return { path, kind: 'a FIFO (named pipe)' };
    case 'symlink': {
      writeFileSync(join(dir, 'real.txt'), 'kept');
      symlinkSync(join(dir, 'real.txt'), path);
      return { path, kind: 'a symbolic link', keep: () => expect(readFileSync(join(dir, 'real.txt'), 'utf8')).toBe('kept') };
    }
    case 'directory':
      mkdirSync(path);
      return { path, kind: 'a directory' };
  }
}

describe('output where a user points it: only ever a regular file', () => {
  // Making a device node needs root; /dev/full itself is never a target here.
  const targets: Target[] = isRoot ? ['device', 'fifo', 'symlink', 'directory'] : ['fifo', 'symlink', 'directory'];
  const pairs = OUTPUT_FACES.flatMap((face) => targets.map((t) => [face.name, t, face] as const));

  it.skipIf(isRoot)('a device node as the target: skipped, making one needs root', () => undefined);

  it.each(pairs)('%s at %s: refused in one line, nothing renamed over it, no temporary file left', async (_name, which, face) => {
    const dir = newDataDir();
    const t = target(which, dir);
    const before = readdirSync(dir).sort();
    const { code, said } = await face.run(t.path);
    expect(code).not.toBe(0);
    expect(said).toContain(`${face.flag}: ${t.path} is ${t.kind}, not a regular file`);
    expect(said.trim().split('\n')).toHaveLength(1);
    expect(readdirSync(dir).sort()).toEqual(before);
    t.keep?.();
  });

  it('export > /dev/full: one line, exit 1, and no "exported" line before the bytes are out', async () => {
    const dataDir = await dataDirWithAMessage();
    const cliPath = fileURLToPath(new URL('../../../main/cli.ts', import.meta.url));
    const full = openSync('/dev/full', 'w');
    // JSON lines: the message was never sent, and HAR (the default) lists attempts.
    const child = spawn(process.execPath, ['--import', 'tsx', cliPath, 'export', '--format', 'json', '--data-dir', dataDir], { stdio: ['ignore', full, 'pipe'] });
    closeSync(full);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toBe('hookbench export: cannot write to stdout (ENOSPC: no space left on device); the export is incomplete\n');
  });

  it('check --list | head -1: the reader closing the pipe is not an error (nothing said, exit 0)', async () => {
    const cliPath = fileURLToPath(new URL('../../../main/cli.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', cliPath, 'check', '--list'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    // The reader takes the first chunk and goes, as head does.
    child.stdout!.once('data', () => child.stdout!.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('a regular file is replaced whole with --force', async () => {
    const dir = newDataDir();
    const path = join(dir, 'out.jsonl');
    writeFileSync(path, 'old');
    const c = captureIO();
    expect(await runCli(['export', '--out', path, '--force', '--data-dir', await dataDirWithAMessage()], c.io)).toBe(0);
    expect(readFileSync(path, 'utf8')).toMatch(/^\{"message":/);
    expect(existsSync(path)).toBe(true);
    expect(readdirSync(dir)).toEqual(['out.jsonl']);
  });
});
