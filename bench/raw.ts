/**
 * Contender (a): the transport ceiling. The same POSTs with undici `request` through an Agent with the
 * engine's connections per origin (16), `inFlight` at a time; no signing, no persistence. With several
 * URLs (origins), request i goes to URL i mod their number.
 */
import { Agent, request } from 'undici';
import type { ContenderOutput } from './contender.js';
import { CONNECTIONS } from './workload.js';

export async function runRaw(urls: readonly string[], n: number, body: Buffer, inFlight: number): Promise<ContenderOutput> {
  const agent = new Agent({ connections: CONNECTIONS, pipelining: 1 });
  const headers = { 'content-type': 'application/json', 'content-length': String(body.length), 'user-agent': 'hookbench-bench-raw' };
  const latencyMs = new Float64Array(n);
  let next = 0;
  let failures = 0;

  const worker = async (): Promise<void> => {
    while (next < n) {
      const i = next++;
      const started = performance.now();
      const res = await request(urls[i % urls.length]!, { method: 'POST', headers, body, dispatcher: agent });
      await res.body.text();
      if (res.statusCode !== 200) failures++;
      latencyMs[i] = performance.now() - started;
    }
  };

  const t0 = performance.now();
  try {
    await Promise.all(Array.from({ length: Math.min(inFlight, n) }, worker));
  } finally {
    await agent.close();
  }
  const elapsedMs = performance.now() - t0;
  if (failures > 0) throw new Error(`raw: ${failures} of ${n} POSTs did not get 200`);
  return {
    deliveries: n,
    elapsedMs,
    latencyMs,
    latencyMeaning: 'request start → response body read',
    details: { inFlight, connectionsPerOrigin: CONNECTIONS, origins: urls.length },
  };
}
