/**
 * A receiver written in Python's http.server (test/helpers/json_dumps_receiver.py), for the mistake only
 * Python makes: verifying X-Signature over json.dumps(json.loads(body)). Started on a free port; ready once
 * it printed the port (no sleeping). Tests skip it, saying so, where python3 is missing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const python3Missing = spawnSync('python3', ['--version']).status !== 0;

export interface PythonReceiver {
  url: string;
  close(): Promise<void>;
}

export async function startPythonReceiver(secret: string): Promise<PythonReceiver> {
  const script = fileURLToPath(new URL('./json_dumps_receiver.py', import.meta.url));
  const child = spawn('python3', [script, secret], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`json_dumps_receiver.py exited with ${code} before listening`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/hook`,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    },
  };
}
