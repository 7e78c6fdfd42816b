/**
 * DynamoDB (dynalite) and SQS (fauxqs) in this process, on loopback, each behind
 * a small proxy that meters what AWS would bill and can inject faults.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';
import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EMULATED_ACCOUNT as ACCOUNT, EMULATED_REGION as REGION } from '../config/emulated-aws';
import { lockFolder } from '../node/folder-lock';
import { emulatorClientConfig } from './endpoints';
import { keyRangeThrottle, SQS_THROTTLE, type AwsLimits } from './aws-limits';
import { chance, type Faults } from './faults';
import { patchFauxqs, restoreQueue, snapshotQueue, type QueueSnapshot } from './fauxqs-internals';
import type { Meter } from './metering';
import type { AppModel } from './template-model';

const LOOPBACK = '127.0.0.1';

async function listen(server: Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

const readBody = (stream: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });

/** A request's exchange, and the function that made it (from the `/fn/<name>` path its endpoint has), if it said. */
type Exchange = (action: string, request: any, status: number, response: any, fn?: string) => void;

/** The endpoint path that names the calling function: `${endpoint}/fn/<name>`, so usage is metered per function. */
export const functionEndpoint = (endpoint: string, fn: string) => `${endpoint}/fn/${encodeURIComponent(fn)}`;

/**
 * A JSON-protocol proxy: reads the X-Amz-Target action, lets `rewrite` change the
 * request or answer it, forwards it, and reports the exchange for metering.
 */
async function startProxy(
  targetPort: number,
  rewrite: (action: string, body: any) => { status: number; body: unknown } | undefined,
  onExchange: Exchange,
): Promise<Server> {
  const server = createServer(async (req, res) => {
    try {
      const raw = await readBody(req);
      const action =
        String(req.headers['x-amz-target'] ?? '')
          .split('.')
          .pop() ?? '';
      const caller = /^\/fn\/([^/]+)/.exec(req.url ?? '');
      const fn = caller ? decodeURIComponent(caller[1]) : undefined;
      const path = caller ? req.url!.slice(caller[0].length) || '/' : req.url;
      let body: any;
      try {
        body = raw.length ? JSON.parse(raw.toString('utf8')) : {};
      } catch {
        body = undefined;
      }
      const answer = body ? rewrite(action, body) : undefined;
      if (answer) {
        res.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(answer.body));
        return;
      }
      const payload = body ? Buffer.from(JSON.stringify(body)) : raw;
      const headers = { ...req.headers, 'content-length': String(payload.length) };
      const upstream = httpRequest(
        { host: LOOPBACK, port: targetPort, method: req.method, path, headers },
        async (up) => {
          const out = await readBody(up);
          res.writeHead(up.statusCode ?? 500, up.headers).end(out);
          let parsed: any;
          try {
            parsed = out.length ? JSON.parse(out.toString('utf8')) : {};
          } catch {
            parsed = {};
          }
          onExchange(action, body ?? {}, up.statusCode ?? 500, parsed, fn);
        },
      );
      upstream.on('error', (error) => res.writeHead(502).end(String(error)));
      upstream.end(payload);
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await listen(server);
  return server;
}

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan']);

function sumCapacity(consumed: any): number {
  if (!consumed) return 0;
  return [consumed].flat().reduce((sum: number, c: any) => sum + Number(c?.CapacityUnits ?? 0), 0);
}

/** Where the queues' messages wait between two runs with the same data directory. */
export const QUEUES_FILE = 'queues.json';

export interface Emulators {
  dynamoEndpoint: string;
  sqsEndpoint: string;
  fauxqs: FauxqsServer;
  tableName(logicalId: string): string;
  queueUrl(logicalId: string): string;
  queueArn(logicalId: string): string;
  stop(): Promise<void>;
}

type EmulatorOptions = { projectRoot: string; meter: Meter; faults: Faults; dataDir?: string; limits?: AwsLimits };

export async function startEmulators(model: AppModel, options: EmulatorOptions): Promise<Emulators> {
  // One runtime a data folder: a second one's table (dynalite's LevelDB) would fail at its first write, with a stack.
  const unlock = options.dataDir ? lockFolder(options.dataDir, 'npm start') : () => undefined;
  const emulators = await runEmulators(model, options).catch((error) => {
    unlock();
    throw error;
  });
  return {
    ...emulators,
    async stop() {
      try {
        await emulators.stop();
      } finally {
        unlock();
      }
    },
  };
}

async function runEmulators(model: AppModel, options: EmulatorOptions): Promise<Emulators> {
  // With a data directory the queues survive a restart too (the table does by itself).
  const queuesFile = options.dataDir ? join(options.dataDir, QUEUES_FILE) : undefined;
  const saved = queuesFile ? savedQueues(queuesFile) : undefined;
  await patchFauxqs(options.projectRoot);
  const keyNames = model.tables.flatMap((t) => t.keySchema.map((k) => k.AttributeName));
  const dynamo = await startDynamo({ ...options, itemLimits: options.limits && itemLimits(options.limits, keyNames) });
  const sqs = await startSqs({
    ...options,
    dedupePerGroup: new Set(model.queues.filter((q) => q.dedupePerGroup).map((q) => q.name)),
    fifo: new Set(model.queues.filter((q) => q.fifo).map((q) => q.name)),
  });
  const queueName = (logicalId: string) => model.queues.find((q) => q.logicalId === logicalId)!.name;
  const queueUrl = (logicalId: string) => `${sqs.endpoint}/${ACCOUNT}/${queueName(logicalId)}`;
  const queueArn = (logicalId: string) => `arn:aws:sqs:${REGION}:${ACCOUNT}:${queueName(logicalId)}`;
  createQueues(model, sqs, queueArn);
  await createTables(model, dynamo.port);
  if (queuesFile && saved) restoreQueues(model, sqs.fauxqs, queuesFile, saved);

  return {
    dynamoEndpoint: dynamo.endpoint,
    sqsEndpoint: sqs.endpoint,
    fauxqs: sqs.fauxqs,
    tableName: (logicalId) => logicalId,
    queueUrl,
    queueArn,
    async stop() {
      if (queuesFile) saveQueues(model, sqs.fauxqs, queuesFile);
      await Promise.all([dynamo.proxy, sqs.proxy].map((s) => new Promise((r) => s.close(r))));
      await sqs.fauxqs.stop();
      await new Promise((r) => dynamo.server.close(r));
    },
  };
}

/**
 * dynalite, behind a proxy that asks for (and meters) consumed capacity, per calling function,
 * and can throttle writes.
 */
async function startDynamo({
  meter,
  faults,
  dataDir,
  itemLimits,
}: {
  meter: Meter;
  faults: Faults;
  dataDir?: string;
  itemLimits?: (action: string, body: any) => object | undefined;
}) {
  const server: Server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, path: dataDir });
  const port = await listen(server);
  const proxy = await startProxy(
    port,
    (action, body) => {
      // Ask for what AWS bills: every response then carries its consumed capacity.
      body.ReturnConsumedCapacity = 'TOTAL';
      const throttled = itemLimits?.(action, body);
      if (throttled) return { status: 400, body: throttled };
      if (action === 'UpdateItem' && chance(faults, faults.throttleUpdates)) {
        return {
          status: 400,
          body: {
            __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
            message: 'Injected throttle',
          },
        };
      }
    },
    (action, request, _status, response, fn) => {
      const units = sumCapacity(response.ConsumedCapacity);
      const table = request.TableName ?? Object.keys(request.RequestItems ?? {})[0] ?? 'unknown';
      meter.recordTable(table, action, READS.has(action) ? units : 0, READS.has(action) ? 0 : units, fn);
    },
  );
  return { server, port, proxy, endpoint: `http://${LOOPBACK}:${(proxy.address() as AddressInfo).port}` };
}

/**
 * fauxqs, behind a proxy that meters billed requests, can drop sends, and scopes deduplication ids
 * by message group where the queue says so (fauxqs scopes them by queue); clients get queue URLs
 * on the proxy.
 */
async function startSqs({
  meter,
  faults,
  dedupePerGroup,
  fifo,
  limits,
}: {
  meter: Meter;
  faults: Faults;
  dedupePerGroup: Set<string>;
  fifo: Set<string>;
  limits?: AwsLimits;
}) {
  const fauxqs = await startFauxqs({ port: 0, host: LOOPBACK, logger: false, defaultRegion: REGION });
  // fauxqs knows queues by the URL it made.
  const urls = new Map<string, string>();
  const proxy = await startProxy(
    fauxqs.port,
    (action, body) => {
      const queue =
        String(body.QueueUrl ?? '')
          .split('/')
          .pop() ?? '';
      // Sends over a message group's or the queue's rate: SQS's ThrottlingException (the SDK retries it).
      if (action === 'SendMessage' && limits && fifo.has(queue) && limits.send(queue, String(body.MessageGroupId)))
        return { status: 400, body: SQS_THROTTLE };
      if (action === 'SendMessage' && chance(faults, faults.dropSends)) {
        // Acknowledged like a real send (the SDK checks the body's MD5), then dropped.
        const md5 = createHash('md5')
          .update(String(body.MessageBody ?? ''))
          .digest('hex');
        return { status: 200, body: { MessageId: randomUUID(), MD5OfMessageBody: md5, SequenceNumber: '0' } };
      }
      if (typeof body.QueueUrl !== 'string') return;
      const name = body.QueueUrl.split('/').pop();
      // A queue created through the API rather than from the template is found by name.
      const real = urls.get(name) ?? fauxqs.inspectQueue(name)?.url;
      if (real) {
        urls.set(name, real);
        body.QueueUrl = real;
      }
      if (dedupePerGroup.has(name) && action.startsWith('SendMessage')) scopeToGroup(action, body);
    },
    (action, request, _status, response) => {
      const queue =
        String(request.QueueUrl ?? '')
          .split('/')
          .pop() ?? 'unknown';
      const entries: any[] = request.Entries ?? (request.MessageBody !== undefined ? [request] : []);
      const bytes = entries.reduce((sum, e) => sum + Buffer.byteLength(String(e.MessageBody ?? ''), 'utf8'), 0);
      meter.recordQueue(queue, action, bytes, {
        sent: action.startsWith('SendMessage') ? entries.length : 0,
        received: action === 'ReceiveMessage' ? (response.Messages ?? []).length : undefined,
      });
    },
  );
  return { fauxqs, urls, proxy, endpoint: `http://${LOOPBACK}:${(proxy.address() as AddressInfo).port}` };
}

/** Actions on one item, by its key: what AWS meters against the item's partition. */
const ITEM_CALLS: Record<string, 'read' | 'write'> = {
  GetItem: 'read',
  PutItem: 'write',
  UpdateItem: 'write',
  DeleteItem: 'write',
};

/**
 * With --aws-limits: a call on a partition key over the key's reads or writes a second is answered
 * as a hot partition is (the SDK retries it, then the caller's own retries take over). A write is
 * one unit (the poll's items are under 1 KB at the sizes a local run uses), an eventually
 * consistent read half a unit.
 */
function itemLimits(limits: AwsLimits, keyNames: string[]) {
  return (action: string, body: any) => {
    const kind = ITEM_CALLS[action];
    const key = body.Key ?? body.Item;
    if (!kind || !key) return undefined;
    // AWS limits a partition key, whatever its items: the first key name is the partition key.
    const itemKey = `${body.TableName}/${JSON.stringify(key[keyNames[0]])}`;
    const units = kind === 'read' && !body.ConsistentRead ? 0.5 : 1;
    if (!limits.itemCall(kind, itemKey, units)) return undefined;
    return keyRangeThrottle(kind, `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${body.TableName}`);
  };
}

/** A deduplication id counts within its message group only: fauxqs keeps them per queue, so each is given its group. */
function scopeToGroup(action: string, body: any): void {
  const entries: any[] = action === 'SendMessageBatch' ? (body.Entries ?? []) : [body];
  for (const entry of entries) {
    if (entry.MessageDeduplicationId)
      entry.MessageDeduplicationId = `${entry.MessageGroupId}/${entry.MessageDeduplicationId}`;
  }
}

/** The template's queues with their settings; dead-letter queues first, so redrive policies can point at them. */
function createQueues(
  model: AppModel,
  sqs: { fauxqs: FauxqsServer; urls: Map<string, string> },
  queueArn: (logicalId: string) => string,
): void {
  for (const queue of [...model.queues].sort((a, b) => Number(!!a.redrive) - Number(!!b.redrive))) {
    const attributes: Record<string, string> = { VisibilityTimeout: String(queue.visibilityTimeoutSeconds) };
    if (queue.fifo) attributes.FifoQueue = 'true';
    if (queue.redrive) {
      attributes.RedrivePolicy = JSON.stringify({
        deadLetterTargetArn: queueArn(queue.redrive.deadLetterLogicalId),
        maxReceiveCount: queue.redrive.maxReceiveCount,
      });
    }
    sqs.urls.set(queue.name, sqs.fauxqs.createQueue(queue.name, { region: REGION, attributes }).queueUrl);
  }
}

async function createTables(model: AppModel, dynamoPort: number): Promise<void> {
  const admin = new DynamoDBClient(emulatorClientConfig(`http://${LOOPBACK}:${dynamoPort}`));
  try {
    for (const table of model.tables) {
      await admin
        .send(
          new CreateTableCommand({
            TableName: table.logicalId,
            KeySchema: table.keySchema as any,
            AttributeDefinitions: table.attributeDefinitions as any,
            BillingMode: 'PAY_PER_REQUEST',
          }),
        )
        // A persisted data directory already has it.
        .catch((error: Error) => {
          if (error.name !== 'ResourceInUseException') throw error;
        });
    }
  } finally {
    admin.destroy();
  }
}

/** The queues the last stop saved, if any: read before anything starts, so that a bad file leaves nothing running. */
function savedQueues(file: string): Record<string, QueueSnapshot> | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(
      `${file} (the votes queued when the runtime last stopped) cannot be read: ${(error as Error).message}. ` +
        'Move it away to start without them.',
      { cause: error },
    );
  }
}

function restoreQueues(model: AppModel, fauxqs: FauxqsServer, file: string, saved: Record<string, QueueSnapshot>) {
  for (const [name, snapshot] of Object.entries(saved))
    if (model.queues.some((q) => q.name === name)) restoreQueue(fauxqs, name, snapshot);
  rmSync(file);
}

function saveQueues(model: AppModel, fauxqs: FauxqsServer, file: string): void {
  writeFileSync(
    file,
    JSON.stringify(Object.fromEntries(model.queues.map((q) => [q.name, snapshotQueue(fauxqs, q.name)]))),
  );
}
