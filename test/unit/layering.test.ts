import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The layer rules of ARCHITECTURE.md are lint rules; prove they fire (and that a clean file passes). */
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
  });

  it('main/core may not do I/O or reach into outer layers', async () => {
    expect(await lint('main/core/probe.ts', "import { createServer } from 'node:http';\nexport const x = createServer;\n")).toHaveLength(1);
    expect(await lint('main/core/probe.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n")).toHaveLength(1);
    expect(await lint('main/core/probe.ts', "import { Engine } from '../engine/engine.js';\nexport const x = Engine;\n")).toHaveLength(1);
    expect(await lint('main/core/probe.ts', "import { createHmac } from 'node:crypto';\nexport const x = createHmac;\n")).toHaveLength(0);
  });

  it('the renderer may import main/contract and its UI libraries, nothing else of main/ and no Node or I/O', async () => {
    const file = 'renderer/src/features/probe.tsx';
    expect(await lint(file, "import { Store } from '../../../main/store/store';\nexport const x = Store;\n")).toHaveLength(1);
    expect(await lint(file, "import { createCore } from '../../../main/engine/createCore.js';\nexport const x = createCore;\n")).toHaveLength(1);
    expect(await lint(file, "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n")).toHaveLength(1);
    expect(await lint(file, "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n")).toHaveLength(1);
    expect(await lint(file, "import { MESSAGE_SHAPES } from '../../../main/contract/messageShapes';\nexport const x = MESSAGE_SHAPES;\n")).toHaveLength(0);
    expect(await lint(file, "import { create } from 'zustand';\nimport { useState } from 'react';\nexport const x = [create, useState];\n")).toHaveLength(0);
  });
});
