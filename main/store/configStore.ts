/**
 * Configuration: settings (clock offset, pause, token, seed), sources and destinations with their
 * connections. Shared secrets pass through the secret codec on their way in and out (secretCodec.ts).
 */
import type { Destination } from '../contract/destinations.js';
import type { Source } from '../contract/sources.js';
import type { Db } from './openDb.js';
import { decryptNullable, encryptNullable, type SecretCodec } from './secretCodec.js';

interface DestinationRow {
  id: string;
  name: string;
  enabled: number;
  config: string;
  created_at: number;
  updated_at: number;
  source_ids: string | null;
}

export class ConfigStore {
  private readonly statements;

  constructor(
    db: Db,
    private readonly transaction: <T>(fn: () => T) => T,
    /** How destinations' shared secrets are kept at rest (secretCodec.ts). */
    private readonly secrets: SecretCodec,
  ) {
    this.statements = {
      getSetting: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
      setSetting: db.prepare<[string, string]>(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      insertDestination: db.prepare(
        'INSERT INTO destinations (id, name, enabled, config, created_at, updated_at) VALUES (@id, @name, @enabled, @config, @createdAt, @updatedAt)',
      ),
      updateDestination: db.prepare(
        'UPDATE destinations SET name = @name, enabled = @enabled, config = @config, updated_at = @updatedAt WHERE id = @id',
      ),
      deleteDestination: db.prepare<[string]>('DELETE FROM destinations WHERE id = ?'),
      clearDestinationSources: db.prepare<[string]>('DELETE FROM destination_sources WHERE destination_id = ?'),
      addDestinationSource: db.prepare<[string, string]>('INSERT INTO destination_sources (destination_id, source_id) VALUES (?, ?)'),
      listDestinations: db.prepare<[], DestinationRow>(
        `SELECT d.*, (SELECT json_group_array(source_id) FROM destination_sources ds WHERE ds.destination_id = d.id) AS source_ids
         FROM destinations d ORDER BY d.name`,
      ),
      deleteSource: db.prepare<[string]>('DELETE FROM sources WHERE id = ?'),
      updateSource: db.prepare('UPDATE sources SET kind = @kind, write_key = @writeKey WHERE id = @id'),
      insertSource: db.prepare(
        'INSERT INTO sources (id, name, kind, write_key, created_at) VALUES (@id, @name, @kind, @writeKey, @createdAt)',
      ),
      listSources: db.prepare<[], { id: string; name: string; kind: Source['kind']; write_key: string; created_at: number }>(
        'SELECT * FROM sources ORDER BY name',
      ),
    };
  }

  getSetting(key: string): string | null {
    return this.statements.getSetting.get(key)?.value ?? null;
  }
  setSetting(key: string, value: string): void {
    this.statements.setSetting.run(key, value);
  }
  listDestinations(): Destination[] {
    return this.statements.listDestinations.all().map((r) => toDestination(r, this.secrets));
  }
  saveDestination(d: Destination, isNew: boolean): void {
    const { id, name, enabled, sourceIds, createdAt, updatedAt, ...config } = d;
    this.transaction(() => {
      const stored = { ...config, sharedSecret: encryptNullable(this.secrets, config.sharedSecret) };
      const row = { id, name, enabled: enabled ? 1 : 0, config: JSON.stringify(stored), createdAt, updatedAt };
      if (isNew) this.statements.insertDestination.run(row);
      else this.statements.updateDestination.run(row);
      this.statements.clearDestinationSources.run(id);
      for (const sourceId of sourceIds) this.statements.addDestinationSource.run(id, sourceId);
    });
  }
  deleteDestination(id: string): void {
    this.statements.deleteDestination.run(id);
  }
  listSources(): Source[] {
    return this.statements.listSources.all().map((r) => ({ id: r.id, name: r.name, kind: r.kind, writeKey: r.write_key, createdAt: r.created_at }));
  }
  insertSource(source: Source): void {
    this.statements.insertSource.run(source);
  }
  updateSource(source: Source): void {
    this.statements.updateSource.run(source);
  }
  /** Deletes a source; its connections, usage counters and audiences go with it (its messages stay). */
  deleteSource(id: string): void {
    this.statements.deleteSource.run(id);
  }
}

function toDestination(r: DestinationRow, secrets: SecretCodec): Destination {
  const config = JSON.parse(r.config) as Omit<Destination, 'id' | 'name' | 'enabled' | 'sourceIds' | 'createdAt' | 'updatedAt'>;
  config.sharedSecret = decryptNullable(secrets, config.sharedSecret);
  return {
    id: r.id,
    name: r.name,
    enabled: r.enabled === 1,
    sourceIds: r.source_ids ? (JSON.parse(r.source_ids) as string[]) : [],
    ...config,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
