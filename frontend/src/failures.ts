/** The pages for what went wrong: a failure with a retry, and a poll or page that is not there. */
import type { Failure } from './api';
import { h, render, say } from './dom';

/** A failure the page cannot recover from alone: explain it and offer a retry. */
export function showFailure(failure: Failure, title: string, retry: () => void): void {
  const heading = h('h1', { tabIndex: -1 }, title);
  // The page says it once; focus moves to the heading, so screen readers hear it too.
  render(
    heading,
    h('p', { className: 'lead' }, failure.message),
    h('button', { type: 'button', onclick: retry }, 'Try again'),
  );
  say('');
}

export function showNotFound(what: 'poll' | 'page' = 'poll'): void {
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
