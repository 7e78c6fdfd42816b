/**
 * `/`: the form that creates a poll, then the poll's link to share. It checks the form with the server's
 * own domain code before sending, so the form and the API can never disagree.
 */
import { POLL_LIMITS } from '../../config/api-contract';
import { PollError } from '../../domain/errors';
import { createPoll as validatePoll } from '../../domain/poll';
import type { Api, PublicPoll } from './api';
import { h, render, say } from './dom';
import { duration, inUnits, LIFETIME_RULE, PRESETS, toMinutes, UNITS } from './lifetime';
import { closingClock } from './times';

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

export function createPage(api: Api): void {
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
  // Any lifetime the API takes: an amount in a unit, the API's default to start with, and the common
  // ones a click away (each shown pressed while it is the lifetime chosen).
  const start = inUnits(POLL_LIMITS.defaultLifetimeMinutes);
  const amount = h('input', {
    type: 'number',
    id: 'lifetime',
    name: 'lifetime',
    min: '1',
    step: 'any',
    inputMode: 'decimal',
    value: String(start.amount),
  });
  amount.setAttribute('aria-describedby', 'lifetime-hint');
  const unit = h(
    'select',
    { name: 'lifetimeUnit' },
    ...UNITS.map((u) => h('option', { value: String(u.minutes), selected: u === start.unit }, `${u.name}s`)),
  );
  unit.setAttribute('aria-label', 'Unit');
  const lifetimeMinutes = () => toMinutes(amount.value, Number(unit.value));
  const presets = PRESETS.map((minutes) => {
    const preset = h('button', { type: 'button', className: 'secondary' }, duration(minutes));
    preset.onclick = () => {
      const chosen = inUnits(minutes);
      amount.value = String(chosen.amount);
      unit.value = String(chosen.unit.minutes);
      unmark(amount);
      showPreset();
    };
    return { minutes, preset };
  });
  const showPreset = () => {
    const chosen = lifetimeMinutes();
    for (const { minutes, preset } of presets) preset.setAttribute('aria-pressed', String(minutes === chosen));
  };
  showPreset();

  // On, unlike the API's default (kept off for programs and the cost profiles): a poll shared in public
  // wants it, and the box stays in sight to untick for a vote among friends.
  const oneVote = h('input', { type: 'checkbox', id: 'one-vote', name: 'oneVotePerVoter', checked: true });
  const oneVoteNote = h(
    'p',
    { className: 'hint', id: 'one-vote-note' },
    'Keep this on for a poll shared in public. A voter is a network address: people sharing one ' +
      '(a school, an office, some phone networks) can vote only once between them.',
  );
  oneVote.setAttribute('aria-describedby', 'one-vote-note');
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
    h('label', { htmlFor: 'lifetime' }, LABELS.lifetimeMinutes),
    h('div', { className: 'lifetime' }, amount, unit),
    h(
      'div',
      { className: 'presets', role: 'group', ariaLabel: 'Common lifetimes' },
      ...presets.map(({ preset }) => preset),
    ),
    h('p', { className: 'hint', id: 'lifetime-hint' }, `Any time ${LIFETIME_RULE}.`),
    h('div', { className: 'check' }, oneVote, h('label', { htmlFor: 'one-vote' }, LABELS.oneVotePerVoter)),
    oneVoteNote,
    submit,
  );
  for (let i = 0; i < POLL_LIMITS.minOptions; i++) addOption(false);

  /** The control of a field, by its name in the API. */
  const controlOf = (field = ''): HTMLElement | undefined => {
    if (field === 'title') return title;
    if (field === 'lifetimeMinutes') return amount;
    if (field === 'oneVotePerVoter') return oneVote;
    return optionList.querySelectorAll('input')[optionIndex(field) ?? -1];
  };
  /**
   * A refusal, the form's own check's or the server's alike: its field's control marked and focused, and
   * why said. The lifetime's rule is said in the form's units, not the API's minutes.
   */
  const refuse = (field: string | undefined, message: string) => {
    const control = controlOf(field);
    control?.setAttribute('aria-invalid', 'true');
    control?.focus();
    say(field === 'lifetimeMinutes' ? `${LABELS.lifetimeMinutes} must be ${LIFETIME_RULE}.` : message, 'error');
  };
  /** A refused control is unmarked, and what was said of it cleared, as soon as it is changed. */
  const unmark = (control: Element) => {
    if (!control.hasAttribute('aria-invalid')) return;
    control.removeAttribute('aria-invalid');
    say('');
  };
  form.oninput = (event) => {
    // The lifetime's unit changes what the amount means: it unmarks the amount.
    unmark(event.target === unit ? amount : (event.target as Element));
    showPreset();
  };
  form.onsubmit = async (event) => {
    event.preventDefault();
    const input = {
      title: title.value,
      options: [...optionList.querySelectorAll('input')].map((o) => o.value),
      lifetimeMinutes: lifetimeMinutes(),
      oneVotePerVoter: oneVote.checked,
    };
    for (const control of form.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
    try {
      // The server's own rules, checked before a request is spent, in the form's words.
      validatePoll(input, Date.now(), undefined, formLabel);
    } catch (error) {
      if (!(error instanceof PollError)) throw error;
      return refuse(error.field, error.message);
    }
    submit.disabled = true;
    say('Creating your poll…');
    const created = await api.createPoll(input);
    submit.disabled = false;
    if (!created.ok)
      return created.kind === 'client' ? refuse(created.field, created.message) : say(created.message, 'error');
    say('');
    // The poll's own address, so a reload (or the back button after voting) keeps the link.
    history.pushState(null, '', `/poll/${created.data.id}`);
    showShareLink(created.data);
  };

  render(h('h1', {}, 'Create a poll'), form);
}

/** The poll just created: its link to copy and share, and when it closes. */
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
