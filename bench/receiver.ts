/**
 * The benchmark's webhook receiver, run as a child process (node:child_process fork) so it has the other
 * core to itself: a plain http server on 127.0.0.1:0 that reads each request body and answers
 * 200 {"ok":true} with keep-alive. It reports its ports, and on request its counters, over IPC, and exits
 * as soon as its parent goes away.
 *
 * Arguments: `--origins N` listens on N ports (N origins, each with its own 16 connections from the
 * engine); `--delay-ms D` answers each request D ms after its body is read (a slow webhook).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isReceiverCommand, type ReceiverReport } from './protocol.js';

const RESPONSE = Buffer.from('{"ok":true}');
const RESPONSE_HEADERS = { 'content-type': 'application/json', 'content-length': String(RESPONSE.length) };

if (!process.send) {
  console.error('bench/receiver: must be started with child_process.fork (no IPC channel)');
  process.exit(1);
}
const send = (report: ReceiverReport): void => {
  process.send?.(report);
};

function argument(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`bench/receiver: ${name} must be a whole number`);
  return value;
}
const origins = Math.max(1, argument('--origins', 1));
const delayMs = argument('--delay-ms', 0);

let requests = 0;
let bodyBytes = 0;
let cpuMark = process.cpuUsage();

const answer = (res: ServerResponse): void => {
  requests++;
  res.writeHead(200, RESPONSE_HEADERS).end(RESPONSE);
};

const servers = Array.from({ length: origins }, () => {
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => {
      bodyBytes += chunk.length;
    });
    req.on('end', () => {
      if (delayMs > 0) setTimeout(answer, delayMs, res);
      else answer(res);
    });
  });
  // Keep connections open across the contenders; nothing here should ever time a client out.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 0;
  server.requestTimeout = 0;
  server.maxRequestsPerSocket = 0;
  return server;
});

process.on('message', (message: unknown) => {
  if (!isReceiverCommand(message)) return;
  const cpu = process.cpuUsage(cpuMark);
  cpuMark = process.cpuUsage();
  send({ type: 'stats', requests, bodyBytes, cpuUserMs: cpu.user / 1000, cpuSystemMs: cpu.system / 1000 });
  requests = 0;
  bodyBytes = 0;
});
process.on('disconnect', () => process.exit(0));

void Promise.all(
  servers.map((server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)))),
).then((ports) => send({ type: 'listening', ports }));
