/**
 * What every page draws with: elements built from props and text, the one `<main>` a page fills and
 * the one live region that speaks. The page's own elements are looked up when used, never on import,
 * so loading a module touches no document.
 */

export type Tone = 'info' | 'error' | 'success';

/** Builds an element; children are nodes or text (never HTML, so titles cannot inject markup). */
export function h<K extends keyof HTMLElementTagNameMap>(
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

/** One live region for messages, so screen readers hear them and the layout keeps its place. */
export function say(message: string, tone: Tone = 'info'): void {
  const status = document.querySelector<HTMLElement>('#status')!;
  status.textContent = message;
  status.dataset.tone = tone;
}

/** Replaces the page's content and moves focus to its heading (or the field marked autofocus). */
export function render(...children: Node[]): void {
  const main = document.querySelector('main')!;
  main.replaceChildren(...children);
  main.querySelector<HTMLElement>('h1, [autofocus]')?.focus();
}
