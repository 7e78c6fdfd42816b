/**
 * `npm run dlq -- inspect|redrive|discard`: what is in the vote dead-letter queue, and a redrive
 * that cannot count a vote twice (docs/exactly-once.md). `--help` for the options.
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import { CommandFailure, parseCommandLine, runCommand, UsageError } from '../bin/command-line';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VOTE_QUEUE } from '../config/vote-queue';
import { DEPLOY_COMMANDS, OUTPUTS_FILES, stackOutputs, TARGETS, type Target } from '../config/targets';
import { VERDICTS, type JudgedLetter, type Verdict } from '../lambdas/domain/dead-letter';
import { emulatorClientConfig, RESOURCES_PATH, type LocalResources } from '../local/endpoints';
import { EMULATED_REGION, LOCALSTACK } from '../config/emulated-aws';
import { DEFAULT_LIMIT, discard, DISCARDABLE, inspect, redrive, refusedDiscard, type Queues } from './dead-letters';

const SPEC = {
  command: 'npm run dlq --',
  positionals: 'inspect|redrive|discard',
  summary:
    `The votes that could not be counted in ${VOTE_QUEUE.maxReceiveCount} deliveries: ` +
    'list them, count the uncounted ones once, or discard what a person gave up on.',
  options: {
    target: {
      type: 'string',
      default: 'local',
      value: TARGETS.join('|'),
      description: 'local asks the running npm start; the others read their outputs file',
    },
    url: {
      type: 'string',
      default: `http://127.0.0.1:${process.env.PORT ?? '3000'}`,
      value: '<url>',
      description: 'where the local runtime runs',
    },
    verdict: {
      type: 'string',
      value: DISCARDABLE.join(','),
      description: 'discard: the verdicts to discard (required)',
    },
    limit: {
      type: 'string',
      default: String(DEFAULT_LIMIT),
      value: '<n>',
      description: 'letters read in one run at most',
    },
    json: { type: 'boolean', default: false, description: 'everything, as JSON' },
  },
  details: [
    'inspect   what is there, by verdict and poll',
    'redrive   put back the votes judged unapplied: each is counted once, however often it is redriven',
    'discard   delete letters of the given verdicts (never unapplied ones)',
  ],
} as const;

/** The queues of a running target: the local runtime says where its are; a deployment's outputs file does. */
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

function verdictLines(letters: readonly JudgedLetter[]): string[] {
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

const brief = (j: JudgedLetter) => ({
  messageId: j.letter.messageId,
  verdict: j.verdict,
  vote: j.vote,
  ...(j.vote ? {} : { body: j.letter.body }),
});

async function main(): Promise<void> {
  const { values, positionals } = parseCommandLine(SPEC);
  const [command] = positionals;
  const target = values.target as Target;
  const limit = Number(values.limit);
  if (positionals.length !== 1 || !['inspect', 'redrive', 'discard'].includes(command))
    throw new UsageError(`Name one command: inspect, redrive or discard.`);
  if (!TARGETS.includes(target)) throw new UsageError(`Unknown target "${values.target}": use ${TARGETS.join(', ')}.`);
  if (!Number.isInteger(limit) || limit < 1)
    throw new UsageError(`--limit must be a whole number above 0 (got ${values.limit}).`);
  const verdicts = (values.verdict ?? '').split(',').filter(Boolean) as Verdict[];
  if (command === 'discard' && verdicts.length === 0)
    throw new UsageError(`discard needs --verdict (one or more of ${DISCARDABLE.join(', ')}).`);
  const refused = command === 'discard' ? refusedDiscard(verdicts) : undefined;
  if (refused) throw new UsageError(refused);
  if (target === 'local' && !URL.canParse(values.url!))
    throw new UsageError(`--url ${values.url} is not a URL: give the local runtime's, e.g. http://127.0.0.1:3000.`);

  const queues = await queuesOf(target, values.url!);
  const print = (json: unknown, text: string) => console.log(values.json ? JSON.stringify(json, null, 2) : text);
  try {
    if (command === 'inspect') {
      const { letters, approximateTotal } = await inspect(queues, { limit });
      print({ approximateTotal, letters: letters.map(brief) }, formatInspection(letters, approximateTotal));
    } else if (command === 'redrive') {
      const result = await redrive(queues, { limit });
      const text = [
        `Redrove ${result.redriven.length} uncounted vote(s) to the vote queue ` +
          '(each is counted once, however often it is redriven); ' +
          `removed ${result.duplicates.length} duplicate letter(s).`,
        ...(result.kept.length > 0
          ? [
              `Left in the queue for a person (${result.kept.length}):`,
              ...verdictLines(result.kept),
              `Once decided: npm run dlq -- discard --verdict <verdict>`,
            ]
          : []),
      ].join('\n');
      print(
        {
          redriven: result.redriven.map(brief),
          duplicates: result.duplicates.map(brief),
          kept: result.kept.map(brief),
        },
        text,
      );
    } else {
      const discarded = await discard(queues, verdicts, { limit });
      print({ discarded: discarded.map(brief) }, `Discarded ${discarded.length} letter(s) (${verdicts.join(', ')}).`);
    }
  } finally {
    queues.sqs.destroy();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCommand(SPEC, () =>
    main().catch((error: Error) => {
      if (error instanceof UsageError || error instanceof CommandFailure) throw error;
      // What the SDK says (credentials, a queue gone): one line, exit 1.
      throw new CommandFailure(`npm run dlq failed: ${error.message}`, { cause: error });
    }),
  );
}
