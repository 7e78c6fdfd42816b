/**
 * In-memory fakes of the handlers' ports (domain/ports.ts), for handler tests that run
 * in milliseconds. Each records what it was asked and can be told to fail.
 */
import type { Verdict } from '../../domain/dead-letter';
import type { Poll } from '../../domain/poll';
import type {
  ApplyOutcome,
  ConsumerMetrics,
  CountStore,
  DeadLetterSink,
  Log,
  PollStore,
  VoterClaim,
  VoteSink,
} from '../../domain/ports';
import { zeroCounts, type PollCounts } from '../../domain/results';
import type { PollTally, QueuedRecord, RedrivenVote } from '../../domain/tally';
import { counterId, type CounterRef, type VoteLayout, type VoteMessage } from '../../domain/vote';

export class FakePollStore implements PollStore {
  readonly polls = new Map<string, Poll>();
  readonly counts = new Map<string, PollCounts>();
  /** Voter claims: `<poll>#<voter>` to the ballot that holds it (none for a vote sent without a key). */
  readonly voters = new Map<string, string | undefined>();
  /** Reads of polls and of counts, to see what a cache saves. */
  pollReads = 0;
  countReads = 0;

  async putNewPoll(poll: Poll): Promise<void> {
    this.polls.set(poll.id, poll);
    this.counts.set(poll.id, zeroCounts(poll));
  }
  async getPoll(id: string) {
    this.pollReads++;
    return this.polls.get(id);
  }
  async getCounts(id: string) {
    this.countReads++;
    const counts = this.counts.get(id);
    return counts && structuredClone(counts);
  }
  async claimVoter(pollId: string, voter: string, _expiresAt: number, ballot?: string): Promise<VoterClaim> {
    const key = `${pollId}#${voter}`;
    if (!this.voters.has(key)) {
      this.voters.set(key, ballot);
      return 'claimed';
    }
    return ballot !== undefined && this.voters.get(key) === ballot ? 'retried' : 'taken';
  }
  async releaseVoter(pollId: string, voter: string, ballot?: string): Promise<void> {
    const key = `${pollId}#${voter}`;
    if (ballot === undefined || this.voters.get(key) === ballot) this.voters.delete(key);
  }
  /** What the consumer would do: add to a poll's counts. */
  count(pollId: string, option: number): void {
    const counts = this.counts.get(pollId)!;
    counts.votes[option] = (counts.votes[option] ?? 0) + 1;
    counts.total++;
  }
}

export class FakeVoteSink implements VoteSink {
  readonly sent: VoteMessage[] = [];
  /** The layout of each sent vote's poll, in the same order. */
  readonly layouts: VoteLayout[] = [];
  /** Set to make every send fail (SQS unreachable, throttled...). */
  failWith?: Error;
  async send(vote: VoteMessage, { poll }: { keyed: boolean; poll: VoteLayout }): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.sent.push(vote);
    this.layouts.push(poll);
  }
}

/** A count store that answers each write as a script says (the real condition is tested against DynamoDB). */
export class ScriptedCountStore implements CountStore {
  readonly applied: PollTally[] = [];
  readonly redriven: RedrivenVote[] = [];
  /** Per poll: what the next writes answer ('throw' = the SDK gave up); 'applied' when the script runs out. */
  readonly script = new Map<string, Array<ApplyOutcome | 'throw'>>();
  /** Guards by counter item (vote.ts counterId); see setGuards. */
  readonly guards = new Map<string, { applied: Record<string, string>; redriven: Set<string> } | 'throw'>();

  async applyTally(tally: PollTally): Promise<ApplyOutcome> {
    const next = this.script.get(tally.pollId)?.shift() ?? { kind: 'applied' };
    if (next === 'throw')
      throw Object.assign(new Error('Injected throttle'), { name: 'ProvisionedThroughputExceededException' });
    if (next.kind === 'applied') this.applied.push(tally);
    return next;
  }
  /** What readGuards answers for a counter item ('throw': it cannot be read). */
  setGuards(item: CounterRef, guards: { applied: Record<string, string>; redriven: Set<string> } | 'throw'): void {
    this.guards.set(counterId(item), guards);
  }
  async readGuards(item: CounterRef) {
    const guards = this.guards.get(counterId(item));
    if (guards === 'throw') throw new Error('DynamoDB unreachable');
    return guards;
  }
  async applyRedrivenVote(vote: RedrivenVote): Promise<'applied'> {
    this.redriven.push(vote);
    return 'applied';
  }
}

export class FakeDeadLetters implements DeadLetterSink {
  readonly letters: Array<{ record: QueuedRecord; verdict: Verdict }> = [];
  failWith?: Error;
  async send(record: QueuedRecord, verdict: Verdict): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.letters.push({ record, verdict });
  }
}

export class FakeMetrics implements ConsumerMetrics {
  readonly totals: Record<string, number> = {};
  published = 0;
  add(name: string, value: number): void {
    this.totals[name] = (this.totals[name] ?? 0) + value;
  }
  deadLettered(verdict: Verdict): void {
    this.add(`DeadLettered:${verdict}`, 1);
  }
  publish(): void {
    this.published++;
  }
}

/** A log that keeps its lines, so a test can see what was reported. */
export class MemoryLog implements Log {
  readonly lines: Array<{ level: string; message: string }> = [];
  error(message: string): void {
    this.lines.push({ level: 'error', message });
  }
  warn(message: string): void {
    this.lines.push({ level: 'warn', message });
  }
  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }
}
