/**
 * `/poll/{id}`: loads the poll and shows its vote form, or its results where the reader has voted from
 * this browser or the poll is closed; sends a ballot until the API answers it, then shows the outcome.
 */
import { isPollId } from '../../domain/ids';
import type { Api, PublicPoll } from './api';
import { canResend, forgetPending, keepPending, newBallot, pendingBallot, sendBallot, type Ballot } from './ballot';
import { h, render, say } from './dom';
import { showFailure, showNotFound } from './failures';
import { resultsPage, type BackToVoting } from './results-page';
import { closingClock } from './times';

const votedKey = (id: string) => `voted:${id}`;
const CLOSED = 'This poll is closed. These are the final results.';

/** The poll's rule, in the terms of what the API does with another vote from the same person. */
const ruleLine = (poll: PublicPoll): string =>
  poll.oneVotePerVoter
    ? 'One vote per voter in this poll.'
    : 'This poll counts every vote sent, so you can vote again.';

/** The results' button back to this poll's vote form. */
const backToVoting = (api: Api, poll: PublicPoll, label = 'Back to voting'): BackToVoting => ({
  label,
  open: () => votePage(api, poll),
});
/** "Vote again" where the poll counts every vote; none where it takes one vote per voter. */
const voteAgain = (api: Api, poll: PublicPoll) =>
  poll.oneVotePerVoter ? undefined : backToVoting(api, poll, 'Vote again');

export async function pollPage(api: Api, id: string): Promise<void> {
  if (!isPollId(id)) return showNotFound();
  say('Loading…');
  const loaded = await api.getPoll(id);
  if (!loaded.ok) {
    if (loaded.kind === 'client' && loaded.status === 404) return showNotFound();
    return showFailure(loaded, 'Could not load this poll', () => void pollPage(api, id));
  }
  say('');
  const poll = loaded.data;
  document.title = `${poll.title} · Poll`;
  const remembered = localStorage.getItem(votedKey(id));
  if (poll.closed) return resultsPage(api, poll, CLOSED);
  // A ballot sent before a reload, never answered: it is sent again under its key, never cast anew.
  const pending = pendingBallot(id);
  if (pending) return votePage(api, poll, pending);
  if (remembered === null) return votePage(api, poll);
  const choice = poll.options[Number(remembered)] ?? '?';
  resultsPage(api, poll, `You voted for “${choice}” from this browser. ${ruleLine(poll)}`, 'info', {
    vote: voteAgain(api, poll),
  });
}

/** `sending`: a ballot on its way, shown chosen while it is sent (again) under its key. */
function votePage(api: Api, poll: PublicPoll, sending?: Ballot): void {
  const choices = poll.options.map((option, i) =>
    h(
      'label',
      { className: 'choice' },
      h('input', { type: 'radio', name: 'option', value: String(i), required: true, checked: sending?.option === i }),
      h('span', {}, option),
    ),
  );
  const fieldset = h('fieldset', {}, h('legend', { className: 'visually-hidden' }, 'Choose one option'), ...choices);
  const submit = h('button', { type: 'submit' }, 'Vote');
  const seeResults = h(
    'button',
    {
      type: 'button',
      className: 'secondary',
      onclick: () => resultsPage(api, poll, '', 'info', { vote: backToVoting(api, poll) }),
    },
    'See results',
  );
  const form = h('form', {}, fieldset, h('div', { className: 'row' }, submit, seeResults));
  const busy = (on: boolean) => {
    for (const control of [fieldset, submit, seeResults]) control.disabled = on;
  };
  const cast = (ballot: Ballot) => {
    busy(true);
    void castBallot(api, poll, ballot, () => busy(false));
  };
  form.onsubmit = (event) => {
    event.preventDefault();
    const picked = form.querySelector<HTMLInputElement>('input[name=option]:checked');
    if (!picked) return say('Choose an option first.', 'error');
    cast(newBallot(poll.id, Number(picked.value)));
  };
  const closes = h('p', { className: 'closes' });
  render(h('h1', { tabIndex: -1 }, poll.title), closes, form);
  // Closed while the form is open: the final results instead (a vote on its way gets its own answer and page).
  closingClock(closes, poll, () => {
    if (!submit.disabled) resultsPage(api, { ...poll, closed: true }, CLOSED);
  });
  if (sending) cast(sending);
}

/**
 * Sends a ballot until the API answers it (retrying by its key), then shows the outcome. `reopen`
 * gives the form back after a refusal that counted nothing.
 */
async function castBallot(api: Api, poll: PublicPoll, ballot: Ballot, reopen: () => void): Promise<void> {
  keepPending(ballot);
  if (!canResend(ballot)) {
    // Past its window a retry would be a second vote.
    forgetPending(poll.id);
    return resultsPage(api, poll, 'Your vote may have been counted: see the results before you vote again.', 'error', {
      vote: backToVoting(api, poll),
    });
  }
  say('Sending your vote…');
  const voted = await sendBallot(ballot, (b) => api.vote(b.pollId, b.option, b.key));
  if (!voted.ok && (voted.kind !== 'client' || voted.status === 429)) {
    // No answer after every try: it may have counted, so the way on is the same ballot again.
    const message = `${voted.message} Your vote may have counted: trying again sends the same vote, never a second.`;
    return showFailure({ ...voted, message }, 'Your vote is not confirmed', () => votePage(api, poll, ballot));
  }
  forgetPending(poll.id);
  if (voted.ok) {
    localStorage.setItem(votedKey(poll.id), String(ballot.option));
    const thanks = `Thanks! Your vote for “${poll.options[ballot.option]}” was recorded. ${ruleLine(poll)}`;
    return resultsPage(api, poll, thanks, 'success', {
      vote: voteAgain(api, poll),
      own: { option: ballot.option, castAt: voted.data.castAt },
    });
  }
  if (voted.status === 409) return resultsPage(api, poll, 'You have already voted in this poll.', 'error');
  if (voted.status === 410) return resultsPage(api, poll, 'This poll closed before your vote arrived.', 'error');
  if (voted.status === 404) return showNotFound();
  reopen();
  say(voted.message, 'error');
}
