/**
 * `npm run dlq -- inspect|redrive|discard`: what is in the vote dead-letter queue, and a redrive
 * that cannot count a vote twice (dlq/; docs/exactly-once.md). `--help` for the options.
 */
import { CommandFailure, parseCommandLine, runCommand, UsageError } from '../node/command-line';
import { VOTE_QUEUE } from '../config/vote-queue';
import { TARGETS, type Target } from '../config/targets';
import { formatInspection, queuesOf, verdictLines } from '../dlq/cli';
import { DEFAULT_LIMIT, discard, DISCARDABLE, inspect, redrive, refusedDiscard } from '../dlq/dead-letters';
import type { JudgedLetter, Verdict } from '../domain/dead-letter';
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

await runCommand(SPEC, () =>
  main().catch((error: Error) => {
    if (error instanceof UsageError || error instanceof CommandFailure) throw error;
    // What the SDK says (credentials, a queue gone): one line, exit 1.
    throw new CommandFailure(`npm run dlq failed: ${error.message}`, { cause: error });
  }),
);
