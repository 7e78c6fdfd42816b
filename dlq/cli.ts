/**
 * What `npm run dlq` (bin/dlq.ts) works with: the dead-letter queues of a target, and the letters
 * as it prints them (docs/exactly-once.md).
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import { CommandFailure } from '../node/command-line';
import { relative } from 'node:path';
import { DEPLOY_COMMANDS, OUTPUTS_FILES, type Target } from '../config/targets';
import { VERDICTS, type JudgedLetter, type Verdict } from '../domain/dead-letter';
import { emulatorClientConfig, RESOURCES_PATH, type LocalResources } from '../local/endpoints';
import { EMULATED_REGION, LOCALSTACK } from '../config/emulated-aws';
import type { Queues } from './dead-letters';
import { stackOutputs } from '../node/cdk';

export async function queuesOf(target: Target, localUrl: string, outputsFile?: string): Promise<Queues> {
  if (target === 'local') {
    const url = `${localUrl.replace(/\/$/, '')}${RESOURCES_PATH}`;
    const resources = (await fetch(url)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .catch((error: Error) => {
        throw new CommandFailure(
          `The local runtime does not answer at ${url} (${error.message}): start it with npm start, or pass --url.`,
          { cause: error },
        );
      })) as LocalResources;
    const sqs = new SQSClient(emulatorClientConfig(resources.sqsEndpoint));
    return { sqs, voteQueueUrl: resources.voteQueueUrl, deadLetterQueueUrl: resources.deadLetterQueueUrl };
  }
  const file = outputsFile ?? OUTPUTS_FILES[target];
  const { VoteQueueUrl, DeadLetterQueueUrl } = stackOutputs(file);
  if (!VoteQueueUrl || !DeadLetterQueueUrl) {
    throw new CommandFailure(
      `${relative(process.cwd(), file)} is missing or has no VoteQueueUrl and DeadLetterQueueUrl: ` +
        `${DEPLOY_COMMANDS[target]} writes it.`,
    );
  }
  // Queue URLs name their region: https://sqs.<region>.amazonaws.com/… (LocalStack: sqs.<region>.localhost…).
  const region = /sqs\.([a-z0-9-]+)\./.exec(DeadLetterQueueUrl)?.[1] ?? EMULATED_REGION;
  const sqs =
    target === 'localstack'
      ? new SQSClient({ region, endpoint: LOCALSTACK.endpoint, credentials: LOCALSTACK.credentials })
      : new SQSClient({ region });
  return { sqs, voteQueueUrl: VoteQueueUrl, deadLetterQueueUrl: DeadLetterQueueUrl };
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

export function verdictLines(letters: readonly JudgedLetter[]): string[] {
  return [...countBy(letters, (j) => j.verdict)].map(
    ([verdict, n]) => `  ${verdict.padEnd(13)}${String(n).padStart(6)}  ${VERDICTS[verdict as Verdict]}`,
  );
}

function letterLine({ vote, letter, verdict }: JudgedLetter): string {
  if (vote) {
    const { voteId, pollId, option, castAt } = vote;
    return `  ${voteId}  ${pollId}  ${String(option).padStart(6)}  ${castAt.padEnd(24)}  ${verdict}`;
  }
  const body = JSON.stringify(letter.body.slice(0, 40));
  return `  ${letter.messageId.padEnd(45)}  ${'-'.padStart(6)}  ${'-'.padEnd(24)}  ${verdict}: ${body}`;
}

export function formatInspection(letters: readonly JudgedLetter[], approximateTotal: number, shown = 20): string {
  if (letters.length === 0) return `The dead-letter queue is empty (SQS counts ${approximateTotal}).`;
  const lines = [
    `${letters.length} letter(s) in the dead-letter queue (SQS counts ${approximateTotal}):`,
    ...verdictLines(letters),
  ];
  lines.push(
    'By poll:',
    ...[...countBy(letters, (j) => j.vote?.pollId ?? '(not a vote)')].map(([poll, n]) => `  ${poll}  ${n}`),
  );
  lines.push(
    `Letters${letters.length > shown ? ` (first ${shown}; --json for all)` : ''}:`,
    `  ${'vote id'.padEnd(21)}  ${'poll id'.padEnd(21)}  option  ${'cast at'.padEnd(24)}  verdict`,
  );
  lines.push(...letters.slice(0, shown).map(letterLine));
  if (approximateTotal > letters.length) {
    lines.push(
      `${approximateTotal - letters.length} more could not be read without removing others ` +
        '(beyond --limit, or behind letters SQS moved itself in the same message group); ' +
        'discard reads on as it removes.',
    );
  }
  if (letters.some((j) => j.verdict === 'unapplied')) lines.push('Count the unapplied votes: npm run dlq -- redrive');
  return lines.join('\n');
}
