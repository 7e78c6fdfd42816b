/** Times on the page: one format for all, and a poll's closing line kept true while it shows. */
import type { PublicPoll } from './api';

/**
 * Times of day as every page writes them (the reader's locale and zone, to the minute): one format, so a
 * closing time and an update time read alike. A time more than 12 hours off gets its date too.
 */
export const TIME = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const DATE_AND_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** When a poll closes, in the reader's clock and in words: "Closes at 14:05 (in 58 minutes)." */
export function closingLine(poll: PublicPoll): string {
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
export function closingClock(line: HTMLElement, poll: PublicPoll, onClose: () => void = () => undefined): () => void {
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
