/**
 * The built site as data, and how its config goes in: shared by the build (frontend/build.ts),
 * whoever serves it (frontend/serve.ts) and the stack, none of which then needs the bundler to serve it.
 */
import type { SiteConfig } from '../config/site';

/** In the page, where its config goes (a JSON string literal until then). */
export const CONFIG_PLACEHOLDER = '"__SITE_CONFIG__"';

export interface Site {
  /** index.html, with CONFIG_PLACEHOLDER where the config goes. */
  page: string;
  notFound: string;
  /** The cost explorer served at /cost (npm start, npm run vps): what npm run cost writes as report.html. */
  explorer?: string;
}

/** The page with its config in place; `<` is escaped so no value can end the script element. */
export function pageWithConfig(page: string, config: SiteConfig | string): string {
  const json = typeof config === 'string' ? config : JSON.stringify(config).replace(/</g, '\\u003c');
  return page.replace(CONFIG_PLACEHOLDER, () => json);
}
