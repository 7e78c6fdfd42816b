/**
 * The poll site: `/` creates a poll, `/poll/{id}` votes and shows live results.
 * Plain DOM, no framework: two small pages do not earn one. Validation is the
 * server's own domain code, so the form and the API can never disagree.
 */
import { POLL_LIMITS, SITE_PAGES } from '../../config/app-config';
import { PollError } from '../../lambdas/domain/errors';
import { decodeSegment, isPollId } from '../../lambdas/domain/ids';
import { createPoll as validatePoll } from '../../lambdas/domain/poll';
import { createApi, loadConfig, type Api, type Failure, type PublicPoll, type PublicResults } from './api';
import {
  canResend,
  forgetPending,
  keepPending,
  newBallot,
  OWN_VOTE_SHOWN_MS,
  pendingBallot,
  sendBallot,
  type Ballot,
} from './ballot';
import { captchaTokens } from './captcha';
import { nextRefreshDelay } from '../../config/results-refresh';
import './app.css';

const LIFETIMES: [minutes: number, label: string][] = [
  [5, '5 minutes'],
  [30, '30 minutes'],
  [60, '1 hour'],
  [24 * 60, '1 day'],
  [POLL_LIMITS.maxLifetimeMinutes, '1 week'],
];

/** Builds an element; children are nodes or text (never HTML, so titles cannot inject markup). */
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { dataset?: Record<string, string> } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const { dataset, ...rest } = props;
  const element = Object.assign(document.createElement(tag), rest);
  if (dataset) Object.assign(element.dataset, dataset);
  element.append(...children);
  return element;
}

/** The form's labels, by the API's fields they stand for: a refusal names what its reader sees. */
const LABELS = {
  title: 'Question',
  options: 'Options',
  lifetimeMinutes: 'Open for',
  oneVotePerVoter: 'One vote per voter',
} as const;
const optionLabel = (index: number) => `Option ${index + 1}`;
/** The index in `options[1]`; undefined for another field. */
const optionIndex = (field = '') => {
  const match = /^options\[(\d+)\]$/.exec(field);
  return match ? Number(match[1]) : undefined;
};
/** An API field as the form names it: `title` is "Question", `options[1]` is "Option 2". */
function formLabel(field: string): string {
  const index = optionIndex(field);
  if (index !== undefined) return optionLabel(index);
  return LABELS[field as keyof typeof LABELS] ?? field;
}

/**
 * Times of day as every page writes them (the reader's locale and zone, to the minute): one format, so a
 * closing time and an update time read alike. A time more than 12 hours off gets its date too.
 */
const TIME = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const DATE_AND_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const main = document.querySelector('main')!;
const status = document.querySelector<HTMLElement>('#status')!;

/** One live region for messages, so screen readers hear them and the layout keeps its place. */
function say(message: string, tone: 'info' | 'error' | 'success' = 'info'): void {
  status.textContent = message;
  status.dataset.tone = tone;
}

function render(...children: Node[]): void {
  main.replaceChildren(...children);
  main.querySelector<HTMLElement>('h1, [autofocus]')?.focus();
}

/** A failure the page cannot recover from alone: explain it and offer a retry. */
function showFailure(failure: Failure, title: string, retry: () => void): void {
  const heading = h('h1', { tabIndex: -1 }, title);
  // The page says it once; focus moves to the heading, so screen readers hear it too.
  render(
    heading,
    h('p', { className: 'lead' }, failure.message),
    h('button', { type: 'button', onclick: retry }, 'Try again'),
  );
  say('');
}

function showNotFound(what: 'poll' | 'page' = 'poll'): void {
  document.title = what === 'poll' ? 'Poll not found · Poll' : 'Page not found · Poll';
  render(
    h('h1', { tabIndex: -1 }, what === 'poll' ? 'Poll not found' : 'Page not found'),
    what === 'poll'
      ? h(
          'p',
          { className: 'lead', dataset: { state: 'not-found' } },
          'This poll does not exist or has expired. Polls are deleted a day after they close.',
        )
      : h(
          'p',
          { className: 'lead', dataset: { state: 'not-found' } },
          'There is no page at this address. ' +
            'A poll’s link looks like /poll/ followed by 21 characters (letters, digits, - and _).',
        ),
    h('a', { href: '/', className: 'button' }, 'Create a new poll'),
  );
  say('');
}

/** When a poll closes, in the reader's clock and in words: "Closes at 14:05 (in 58 minutes)." */
function closingLine(poll: PublicPoll): string {
  const at = new Date(poll.closesAt);
  const leftMs = at.getTime() - Date.now();
  // Rounded up: "in 1 minute" until the close instant, never "closed" while votes are still taken.
  const minutes = Math.ceil(leftMs / 60_000);
  const time = (Math.abs(minutes) < 12 * 60 ? TIME : DATE_AND_TIME).format(at);
  if (poll.closed || leftMs <= 0) return `Closed at ${time}.`;
  const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const left =
    minutes < 60
      ? count(minutes, 'minute')
      : minutes < 48 * 60
        ? count(Math.round(minutes / 60), 'hour')
        : count(Math.round(minutes / 1440), 'day');
  return `Closes at ${time} (in ${left}).`;
}

/**
 * Keeps a poll's closing line true while it is on the page: it counts down as minutes pass and,
 * at the close instant (or when the server says so first: the returned function), says the poll
 * is closed and calls `onClose` once. It stops when the page no longer shows the line.
 */
function closingClock(line: HTMLElement, poll: PublicPoll, onClose: () => void = () => undefined): () => void {
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = (serverSaysClosed = false) => {
    clearTimeout(timer);
    if (closed || !line.isConnected) return;
    const leftMs = new Date(poll.closesAt).getTime() - Date.now();
    closed = poll.closed || serverSaysClosed || leftMs <= 0;
    line.textContent = closingLine({ ...poll, closed });
    if (closed) onClose();
    // Next when the minutes left change.
    else timer = setTimeout(tick, leftMs % 60_000 || 60_000);
  };
  tick();
  return () => tick(true);
}

// ---------- Create ----------

function createPage(api: Api): void {
  const optionList = h('ol', { className: 'option-inputs' });
  const addButton = h('button', { type: 'button', className: 'secondary' }, '+ Add option');

  const refreshOptionControls = () => {
    const rows = optionList.children.length;
    addButton.disabled = rows >= POLL_LIMITS.maxOptions;
    for (const button of optionList.querySelectorAll<HTMLButtonElement>('button.remove'))
      button.disabled = rows <= POLL_LIMITS.minOptions;
    for (const [i, input] of optionList.querySelectorAll('input').entries())
      input.setAttribute('aria-label', optionLabel(i));
  };
  const addOption = (focus: boolean) => {
    const input = h('input', {
      type: 'text',
      name: 'option',
      maxLength: POLL_LIMITS.optionMaxLength,
      placeholder: 'Option',
      required: true,
    });
    const remove = h('button', { type: 'button', className: 'remove secondary', title: 'Remove this option' }, '×');
    const row = h('li', {}, input, remove);
    remove.setAttribute('aria-label', 'Remove this option');
    remove.onclick = () => {
      row.remove();
      refreshOptionControls();
    };
    optionList.append(row);
    refreshOptionControls();
    if (focus) input.focus();
  };
  addButton.onclick = () => addOption(true);

  const title = h('input', {
    type: 'text',
    id: 'title',
    name: 'title',
    maxLength: POLL_LIMITS.titleMaxLength,
    required: true,
    autofocus: true,
  });
  const lifetime = h(
    'select',
    { id: 'lifetime', name: 'lifetime' },
    ...LIFETIMES.map(([minutes, label]) =>
      h('option', { value: String(minutes), selected: minutes === POLL_LIMITS.defaultLifetimeMinutes }, label),
    ),
  );
  // Off, as in the API: on, everyone behind one network address (a school, an office, a phone carrier)
  // counts as one voter.
  const oneVote = h('input', { type: 'checkbox', id: 'one-vote', name: 'oneVotePerVoter', checked: false });
  const oneVoteNote = h(
    'p',
    { className: 'hint', id: 'one-vote-note', hidden: true },
    'A voter is a network address: people sharing one (a school, an office, some phone networks) ' +
      'can vote only once between them.',
  );
  oneVote.setAttribute('aria-describedby', 'one-vote-note');
  oneVote.onchange = () => {
    oneVoteNote.hidden = !oneVote.checked;
  };
  const submit = h('button', { type: 'submit' }, 'Create poll');

  const form = h(
    'form',
    { noValidate: true },
    h('label', { htmlFor: 'title' }, LABELS.title),
    title,
    h(
      'fieldset',
      {},
      h('legend', {}, `${LABELS.options} (${POLL_LIMITS.minOptions} to ${POLL_LIMITS.maxOptions})`),
      optionList,
      addButton,
    ),
    h(
      'div',
      { className: 'row' },
      h('div', {}, h('label', { htmlFor: 'lifetime' }, LABELS.lifetimeMinutes), lifetime),
      h('div', { className: 'check' }, oneVote, h('label', { htmlFor: 'one-vote' }, LABELS.oneVotePerVoter)),
    ),
    oneVoteNote,
    submit,
  );
  for (let i = 0; i < POLL_LIMITS.minOptions; i++) addOption(false);

  // A refused control is unmarked, and what was said of it cleared, as soon as it is changed.
  form.oninput = (event) => {
    const control = event.target as Element;
    if (!control.hasAttribute('aria-invalid')) return;
    control.removeAttribute('aria-invalid');
    say('');
  };
  form.onsubmit = async (event) => {
    event.preventDefault();
    const input = {
      title: title.value,
      options: [...optionList.querySelectorAll('input')].map((o) => o.value),
      lifetimeMinutes: Number(lifetime.value),
      oneVotePerVoter: oneVote.checked,
    };
    for (const control of form.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
    try {
      // The server's own rules, checked before a request is spent, in the form's words.
      validatePoll(input, Date.now(), undefined, formLabel);
    } catch (error) {
      if (!(error instanceof PollError)) throw error;
      const options = optionList.querySelectorAll('input');
      const control = error.field === 'title' ? title : options[optionIndex(error.field) ?? options.length];
      control?.setAttribute('aria-invalid', 'true');
      control?.focus();
      return say(error.message, 'error');
    }
    submit.disabled = true;
    say('Creating your poll…');
    const created = await api.createPoll(input);
    submit.disabled = false;
    if (!created.ok) return say(created.message, 'error');
    say('');
    // The poll's own address, so a reload (or the back button after voting) keeps the link.
    history.pushState(null, '', `/poll/${created.data.id}`);
    showShareLink(created.data);
  };

  render(h('h1', {}, 'Create a poll'), form);
}

function showShareLink(poll: PublicPoll): void {
  const link = new URL(`/poll/${poll.id}`, location.origin).href;
  const field = h('input', { type: 'text', readOnly: true, value: link, id: 'share-link' });
  const copy = h('button', { type: 'button' }, 'Copy link');
  copy.onclick = async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(link);
      say('Link copied.', 'success');
    } catch {
      say('Select the link and copy it with your keyboard.', 'info');
    }
  };
  const closes = h('p', { className: 'closes' });
  render(
    h('h1', { tabIndex: -1 }, 'Your poll is ready'),
    h('p', { className: 'lead' }, poll.title),
    closes,
    h('label', { htmlFor: 'share-link' }, 'Share this link'),
    h('div', { className: 'share' }, field, copy),
    h(
      'p',
      { className: 'actions' },
      h('a', { href: link, className: 'button' }, 'Open the poll'),
      h('a', { href: '/' }, 'Create another'),
    ),
  );
  closingClock(closes, poll);
}

// ---------- Vote and results ----------

const votedKey = (id: string) => `voted:${id}`;
const CLOSED = 'This poll is closed. These are the final results.';

/** The poll's rule, in the terms of what the API does with another vote from the same person. */
const ruleLine = (poll: PublicPoll): string =>
  poll.oneVotePerVoter
    ? 'One vote per voter in this poll.'
    : 'This poll counts every vote sent, so you can vote again.';

async function pollPage(api: Api, id: string): Promise<void> {
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
    voteLabel: poll.oneVotePerVoter ? undefined : 'Vote again',
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
      onclick: () => resultsPage(api, poll, '', 'info', { voteLabel: 'Back to voting' }),
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
      voteLabel: 'Back to voting',
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
      voteLabel: poll.oneVotePerVoter ? undefined : 'Vote again',
      own: { option: ballot.option, castAt: voted.data.castAt },
    });
  }
  if (voted.status === 409) return resultsPage(api, poll, 'You have already voted in this poll.', 'error');
  if (voted.status === 410) return resultsPage(api, poll, 'This poll closed before your vote arrived.', 'error');
  if (voted.status === 404) return showNotFound();
  reopen();
  say(voted.message, 'error');
}

/** The voter's own vote as the API acknowledged it, shown in the results until they include it. */
interface OwnVote {
  option: number;
  castAt: string;
}

/**
 * `voteLabel`: a button back to the vote form (none when the reader may not vote again);
 * `own`: the vote just acknowledged, added to results older than it (a cached answer).
 */
function resultsPage(
  api: Api,
  poll: PublicPoll,
  message: string,
  tone: 'info' | 'success' | 'error' = 'info',
  options: { voteLabel?: string; own?: OwnVote } = {},
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
  const backToVoting = h('button', { type: 'button', className: 'secondary' }, options.voteLabel ?? '');
  render(
    h('h1', { tabIndex: -1 }, poll.title),
    closes,
    h('ol', { className: 'results', ariaLabel: 'Results' }, ...rows.map((r) => r.row)),
    total,
    liveness,
    h(
      'p',
      { className: 'actions' },
      ...(options.voteLabel && !poll.closed ? [backToVoting] : []),
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
        return stop('Final results: the poll is closed.');
      }
      delay = nextRefreshDelay(delay, fetched.data.total !== lastTotal);
      lastTotal = fetched.data.total;
      liveness.textContent = own
        ? 'Your vote is being counted: it is shown already.'
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
    votePage(api, poll);
  };
  void refresh();
}

async function start(): Promise<void> {
  const config = loadConfig();
  const api = createApi(config, captchaTokens(config.captcha));
  const poll = SITE_PAGES.poll.exec(location.pathname);
  if (poll) await pollPage(api, decodeSegment(poll[1]));
  else if (SITE_PAGES.create.test(location.pathname)) createPage(api);
  else showNotFound('page');
}

// Back and forward between the create page and a poll's address.
window.addEventListener('popstate', () => void start());

void start();
