/**
 * The two editions of the app behind one test interface, so the same checks (the bad-input
 * campaign, the browser) run against both: the serverless edition on the local runtime, and the
 * VPS edition as one process with its log in a temporary folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TABLE } from '../../config/table';
import { buildSite } from '../../frontend/build';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import type { LocalRuntimeOptions } from '../../local/runtime-options';
import { startVpsServer, type VpsServer } from '../../vps/server';
import { clients, scanTable } from './local';

export type EditionName = 'serverless' | 'vps';
export const EDITIONS: EditionName[] = ['serverless', 'vps'];

export interface Edition {
  name: EditionName;
  url: string;
  /** Closes a poll created with `lifetimeMinutes: 1` (and only such polls). */
  closeShortPolls(ids: string[]): Promise<void>;
  /** What is stored, one key per item (polls, counts, voter claims), to compare before and after. */
  storedKeys(): Promise<string[]>;
  /** Resolves once every accepted vote is counted (the serverless edition counts through its queue). */
  settled(): Promise<void>;
  runtime?: LocalRuntime;
  vps?: VpsServer;
  stop(): Promise<void>;
}

export async function startEdition(
  name: EditionName,
  options: Pick<LocalRuntimeOptions, 'rateLimits' | 'results'> = { rateLimits: false },
): Promise<Edition> {
  if (name === 'serverless') {
    const runtime = await startLocalRuntime({ ...options, logLevel: 'SILENT' });
    return {
      name,
      url: runtime.url,
      runtime,
      async closeShortPolls(ids) {
        const { dynamo } = clients(runtime);
        for (const id of ids) {
          for (const sk of [TABLE.keys.pollSort, TABLE.keys.countsSort]) {
            await dynamo.send(
              new UpdateCommand({
                TableName: runtime.resources.tableName,
                Key: { pk: `${TABLE.keys.pollPrefix}${id}`, sk },
                UpdateExpression: 'SET closesAt = :past',
                ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 60 },
              }),
            );
          }
        }
      },
      storedKeys: async () => (await scanTable(runtime)).map((item) => `${item.pk}|${item.sk}`).sort(),
      settled: () => runtime.waitForDrain(60_000),
      stop: () => runtime.stop(),
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'vps-test-'));
  let offsetMs = 0;
  const vps = await startVpsServer({
    dataDir,
    port: 0,
    site: buildSite(),
    rateLimits: options.rateLimits,
    clock: () => Date.now() + offsetMs,
    log: { error: () => undefined, warn: () => undefined },
  });
  return {
    name,
    url: vps.url,
    vps,
    async closeShortPolls() {
      // Two minutes on: polls of a 1-minute lifetime close, the others (an hour by default) stay open.
      offsetMs += 2 * 60_000;
    },
    storedKeys: async () =>
      vps.store.state
        .snapshot()
        .map((r) => (r.k === 'poll' ? `poll|${r.poll.id}` : r.k === 'claim' ? `claim|${r.p}|${r.h}` : `${r.k}|${r.p}`))
        .sort(),
    settled: async () => undefined,
    async stop() {
      await vps.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
