/**
 * A poll's live results: bars with counts and shares, refreshed as often as votes arrive and no more,
 * with the reader's own vote shown at once. Where the reader may vote (again), a button hands back to
 * the vote form its caller names, so this page knows nothing of voting.
 */
import type { Api, PublicPoll, PublicResults } from './api';
import { OWN_VOTE_SHOWN_MS } from './ballot';
import { h, render, say, type Tone } from './dom';
import { closingClock, TIME } from './times';
import { nextRefreshDelay } from '../../domain/results-refresh';

/** The voter's own vote as the API acknowledged it, shown in the results until they include it. */
interface OwnVote {
  option: number;
  castAt: string;
}

/** A way back from the results to the vote form: the button's words, and what opens the form. */
export interface BackToVoting {
  label: string;
  open: () => void;
}

/**
 * `vote`: a button back to the vote form (none when the reader may not vote again);
 * `own`: the vote just acknowledged, added to results older than it (a cached answer).
 */
export function resultsPage(
  api: Api,
  poll: PublicPoll,
  message: string,
  tone: Tone = 'info',
  options: { vote?: BackToVoting; own?: OwnVote } = {},
): void {
  // Rows exist from the start, their heights fixed: an option has a line (or lines) of its own and its
  // figures sit beside the bar, so counts arriving never rewrap an option and live updates never move a row.
  const rows = poll.options.map((option) => {
    const bar = h('div', { className: 'bar' });
    const figures = h('span', { className: 'figures' }, '–');
    const row = h(
      'li',
      {},
      h('div', { className: 'label' }, option),
      h('div', { className: 'meter' }, h('div', { className: 'track' }, bar), figures),
    );
    return { row, bar, figures };
  });
  const total = h('p', { className: 'total' }, ' ');
  const liveness = h('p', { className: 'liveness' }, ' ');
  const closes = h('p', { className: 'closes' });
  const backToVoting = h('button', { type: 'button', className: 'secondary' }, options.vote?.label ?? '');
  render(
    h('h1', { tabIndex: -1 }, poll.title),
    closes,
    h('ol', { className: 'results', ariaLabel: 'Results' }, ...rows.map((r) => r.row)),
    total,
    liveness,
    h(
      'p',
      { className: 'actions' },
      ...(options.vote && !poll.closed ? [backToVoting] : []),
      h('a', { href: '/' }, 'Create your own poll'),
    ),
  );
  say(message, tone);
  const closeNow = closingClock(closes, poll, () => backToVoting.remove());

  const show = (results: PublicResults) => {
    results.counts.forEach((count, i) => {
      const share = results.total === 0 ? 0 : Math.round((count * 100) / results.total);
      rows[i].bar.style.width = `${share}%`;
      rows[i].figures.textContent = `${count} · ${share}%`;
    });
    total.textContent = `${results.total} vote${results.total === 1 ? '' : 's'}`;
  };
  // The voter's own vote is added to results older than it (a cached answer, or counting under way),
  // so it shows at once without another request; dropped once they include it, or after a while.
  const acknowledgedAt = Date.now();
  let own = options.own;
  const withOwnVote = (results: PublicResults): PublicResults => {
    const included = own && Date.parse(results.updatedAt) >= Date.parse(own.castAt);
    if (included || Date.now() - acknowledgedAt > OWN_VOTE_SHOWN_MS) own = undefined;
    if (!own) return results;
    const { option } = own;
    return { ...results, counts: results.counts.map((n, i) => (i === option ? n + 1 : n)), total: results.total + 1 };
  };

  // Adaptive refresh: fast while votes arrive, backing off when quiet, paused while hidden, stopped when closed.
  let delay: number | undefined;
  let lastTotal = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const refresh = async () => {
    timer = undefined;
    const fetched = await api.results(poll.id);
    if (stopped) return;
    if (!fetched.ok) {
      if (fetched.kind === 'client' && fetched.status === 404) return stop('This poll has expired.');
      liveness.textContent = `${fetched.message}`;
      delay = nextRefreshDelay(delay, false);
    } else {
      show(withOwnVote(fetched.data));
      if (fetched.data.closed) {
        closeNow();
        // A poll closed before this page opened says so at the top already.
        return stop(poll.closed ? '' : 'Final results: the poll is closed.');
      }
      delay = nextRefreshDelay(delay, fetched.data.total !== lastTotal);
      lastTotal = fetched.data.total;
      liveness.textContent = own
        ? 'Your vote is shown, and being counted.'
        : `Live · updated ${TIME.format(new Date())}`;
    }
    if (!document.hidden) timer = setTimeout(refresh, delay);
  };
  const stop = (why: string) => {
    stopped = true;
    liveness.textContent = why;
    document.removeEventListener('visibilitychange', onVisibility);
  };
  const onVisibility = () => {
    if (document.hidden && timer) {
      clearTimeout(timer);
      timer = undefined;
    } else if (!document.hidden && !timer && !stopped) {
      delay = undefined; // coming back: catch up at once, then refresh fast
      void refresh();
    }
  };
  document.addEventListener('visibilitychange', onVisibility);
  backToVoting.onclick = () => {
    stop('');
    options.vote?.open();
  };
  void refresh();
}
