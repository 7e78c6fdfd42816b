/** Helpers for tests that talk to a running local runtime over HTTP and the AWS SDK. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { IDEMPOTENCY } from '../../config/api-contract';
import { emulatorClientConfig } from '../../local/endpoints';
import type { LocalRuntime } from '../../local/runtime';

export function clients(runtime: LocalRuntime) {
  const dynamo = DynamoDBDocumentClient.from(
    new DynamoDBClient(emulatorClientConfig(runtime.resources.dynamoEndpoint)),
  );
  const sqs = new SQSClient(emulatorClientConfig(runtime.resources.sqsEndpoint));
  return { dynamo, sqs };
}

export async function scanTable(runtime: LocalRuntime): Promise<Record<string, unknown>[]> {
  const { dynamo } = clients(runtime);
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new ScanCommand({ TableName: runtime.resources.tableName, ExclusiveStartKey: start }),
    );
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** A client of the API at `server.url` (the local runtime, the VPS edition, anything serving it). */
export function api(server: { url: string }) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(server.url + path, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, json, text };
  };
  return {
    call,
    createPoll: async (input: Record<string, unknown> = {}) => {
      const res = await call('POST', '/api/poll', { title: 'Test poll', options: ['A', 'B', 'C'], ...input });
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
      return res.json as { id: string; options: string[] };
    },
    /** `key`: the ballot's Idempotency-Key; a retry with it is the same vote. */
    vote: (id: string, option: number, key?: string) =>
      call('POST', `/api/poll/${id}/vote`, { option }, key === undefined ? {} : { [IDEMPOTENCY.header]: key }),
    // Tests want the counts as they are, not as a 2-second cache last saw them.
    results: (id: string) => call('GET', `/api/poll/${id}/results`, undefined, { 'cache-control': 'no-cache' }),
  };
}

/**
 * Sends one ballot under its idempotency key until it is answered (anything but a network error, a
 * 5xx or a 429), as the page does: a retry of a vote that was queued is that vote. `target` is
 * asked again before each try, so a retry can wait for a server that is restarting.
 */
export async function voteUntilAnswered(
  target: () => { url: string } | Promise<{ url: string }>,
  ballot: { pollId: string; option: number; key: string },
  maxTries = 20,
): Promise<{ status: number; json: any; tries: number }> {
  for (let tries = 1; ; tries++) {
    const res = await api(await target())
      .vote(ballot.pollId, ballot.option, ballot.key)
      .catch(() => undefined);
    if (res && res.status < 500 && res.status !== 429) return { status: res.status, json: res.json, tries };
    if (tries >= maxTries) throw new Error(`ballot ${ballot.key} unanswered after ${tries} tries (${res?.status})`);
    // A short back-off, as a client's: the server that failed is busy.
    await new Promise((resolve) => setTimeout(resolve, 20 * tries));
  }
}

/** Runs async tasks with at most `limit` at once (bounded load). */
export async function pool<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}
