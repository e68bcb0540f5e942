import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The layer rules of docs/architecture.md are lint rules; prove they fire (and that a clean file passes). */
describe('layering lint rules', () => {
  const eslint = new ESLint();
  const lint = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  };

  it('main/contract may not import Node, I/O packages or other layers', async () => {
    expect(await lint('main/contract/probe.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n")).toHaveLength(1);
    expect(await lint('main/contract/probe.ts', "import { request } from 'undici';\nexport const x = request;\n")).toHaveLength(1);
    expect(await lint('main/contract/probe.ts', "import { Store } from '../store/store.js';\nexport const x = Store;\n")).toHaveLength(1);
    expect(await lint('main/contract/probe.ts', "import { z } from 'zod';\nexport const x = z;\n")).toHaveLength(0);
    // The command declarations one folder down reach the rest of the contract, and nothing past it.
    expect(await lint('main/contract/commands/probe.ts', "import { LIMITS } from '../messageShapes.js';\nexport const x = LIMITS;\n")).toHaveLength(0);
    expect(await lint('main/contract/commands/probe.ts', "import { Store } from '../../store/store.js';\nexport const x = Store;\n")).toHaveLength(1);
    expect(await lint('main/contract/commands/probe.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n")).toHaveLength(1);
  });

  it('main/domain may not do I/O or reach into outer layers', async () => {
    expect(await lint('main/domain/probe.ts', "import { createServer } from 'node:http';\nexport const x = createServer;\n")).toHaveLength(1);
    expect(await lint('main/domain/probe.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n")).toHaveLength(1);
    expect(await lint('main/domain/probe.ts', "import { Engine } from '../delivery/scheduler.js';\nexport const x = Engine;\n")).toHaveLength(1);
    expect(await lint('main/domain/probe.ts', "import { createHmac } from 'node:crypto';\nexport const x = createHmac;\n")).toHaveLength(0);
  });

  it('main/store imports no engine, face or client', async () => {
    expect(await lint('main/store/probe.ts', "import { Engine } from '../delivery/scheduler.js';\nexport const x = Engine;\n")).toHaveLength(1);
    expect(await lint('main/store/probe.ts', "import { startServer } from '../server/httpServer.js';\nexport const x = startServer;\n")).toHaveLength(1);
    expect(await lint('main/store/probe.ts', "import { runCli } from '../cli/program.js';\nexport const x = runCli;\n")).toHaveLength(1);
    expect(await lint('main/store/probe.ts', "import { deriveMessageStatus } from '../domain/deliveryDecision.js';\nexport const x = deriveMessageStatus;\n")).toHaveLength(0);
  });

  it('the engine (main/app and the feature folders) imports no face (server, cli, desktop) and not the client library', async () => {
    expect(await lint('main/delivery/probe.ts', "import { startServer } from '../server/httpServer.js';\nexport const x = startServer;\n")).toHaveLength(1);
    expect(await lint('main/receiver/probe.ts', "import { runCli } from '../cli/program.js';\nexport const x = runCli;\n")).toHaveLength(1);
    expect(await lint('main/app/probe.ts', "import { Client } from '../client/client.js';\nexport const x = Client;\n")).toHaveLength(1);
    expect(await lint('main/history/probe.ts', "import { Store } from '../store/store.js';\nexport const x = Store;\n")).toHaveLength(0);
  });

  it('an engine folder imports only the floors below it: no feature imports main/app, a feature beside it or one above', async () => {
    expect(await lint('main/ingestion/probe.ts', "import { createCore } from '../app/createCore.js';\nexport const x = createCore;\n")).toHaveLength(1);
    expect(await lint('main/history/probe.ts', "import { Engine } from '../delivery/scheduler.js';\nexport const x = Engine;\n")).toHaveLength(1);
    expect(await lint('main/platform/probe.ts', "import { Registry } from '../registry/registry.js';\nexport const x = Registry;\n")).toHaveLength(1);
    expect(await lint('main/delivery/probe.ts', "import { Control } from '../control/control.js';\nexport const x = Control;\n")).toHaveLength(1);
    expect(await lint('main/delivery/probe.ts', "import { Intake } from '../ingestion/intake.js';\nexport const x = Intake;\n")).toHaveLength(0);
    expect(await lint('main/control/probe.ts', "import { Engine } from '../delivery/scheduler.js';\nexport const x = Engine;\n")).toHaveLength(0);
    expect(await lint('main/app/probe.ts', "import { Control } from '../control/control.js';\nexport const x = Control;\n")).toHaveLength(0);
  });

  it('main/server imports no CLI; main/client imports main/contract only', async () => {
    expect(await lint('main/server/probe.ts', "import { runCli } from '../cli/program.js';\nexport const x = runCli;\n")).toHaveLength(1);
    expect(await lint('main/client/probe.ts', "import { normaliseTimestamp } from '../domain/messages.js';\nexport const x = normaliseTimestamp;\n")).toHaveLength(1);
    expect(await lint('main/client/probe.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n")).toHaveLength(1);
    expect(await lint('main/client/probe.ts', "import { LIMITS } from '../contract/messageShapes.js';\nexport const x = LIMITS;\n")).toHaveLength(0);
  });

  it('the CLI imports no desktop shell, from any depth of main/cli', async () => {
    expect(await lint('main/cli/probe.ts', "import { main } from '../desktop/main.js';\nexport const x = main;\n")).toHaveLength(1);
    expect(await lint('main/cli/commands/probe.ts', "import { main } from '../../desktop/main.js';\nexport const x = main;\n")).toHaveLength(1);
    expect(await lint('main/cli/commands/send/probe.ts', "import { main } from '../../../desktop/main.js';\nexport const x = main;\n")).toHaveLength(1);
    expect(await lint('main/cli/commands/send/probe.ts', "import { EXIT } from '../../io.js';\nexport const x = EXIT;\n")).toHaveLength(0);
  });

  it('only main/desktop may import electron (values, types and subpaths alike)', async () => {
    const fixture = readFileSync(new URL('../../fixtures/layering/electron-outside-desktop.ts.txt', import.meta.url), 'utf8');
    for (const elsewhere of ['main/delivery/probe.ts', 'main/server/probe.ts', 'main/cli/probe.ts', 'renderer/src/probe.tsx', 'scripts/probe.mjs', 'test/unit/project/probe.test.ts']) {
      const messages = await lint(elsewhere, elsewhere.endsWith('.mjs') ? "import { app } from 'electron';\nexport const x = app;\n" : fixture);
      // every import of the fixture is refused: the value, the type and the subpath
      expect(messages, elsewhere).toHaveLength(elsewhere.endsWith('.mjs') ? 1 : 3);
    }
    for (const folder of ['store', 'platform', 'delivery', 'receiver', 'app', 'server', 'client', 'cli', 'contract', 'domain']) {
      expect(await lint(`main/${folder}/probe.ts`, fixture), folder).toHaveLength(3);
    }
    expect(await lint('main/desktop/probe.ts', fixture)).toHaveLength(0);
  });

  it("a core's store stays inside the core: main/ may not import internalsOf", async () => {
    const [result] = await eslint.lintText("import { internalsOf } from '../app/createCore.js';\nexport const x = internalsOf;\n", { filePath: 'main/server/probe.ts' });
    expect(result!.messages.map((m) => m.ruleId)).toContain('no-restricted-syntax');
    const [fine] = await eslint.lintText("import { createCore } from '../app/createCore.js';\nexport const x = createCore;\n", { filePath: 'main/server/probe.ts' });
    expect(fine!.messages).toEqual([]);
  });

  it('the renderer may import main/contract and its UI libraries, nothing else of main/ and no Node or I/O', async () => {
    const file = 'renderer/src/features/probe.tsx';
    expect(await lint(file, "import { Store } from '../../../main/store/store';\nexport const x = Store;\n")).toHaveLength(1);
    expect(await lint(file, "import { createCore } from '../../../main/app/createCore.js';\nexport const x = createCore;\n")).toHaveLength(1);
    expect(await lint(file, "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n")).toHaveLength(1);
    expect(await lint(file, "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n")).toHaveLength(1);
    expect(await lint(file, "import { MESSAGE_SHAPES } from '../../../main/contract/messageShapes';\nexport const x = MESSAGE_SHAPES;\n")).toHaveLength(0);
    expect(await lint(file, "import { create } from 'zustand';\nimport { useState } from 'react';\nexport const x = [create, useState];\n")).toHaveLength(0);
  });
});
