/**
 * The poll site's entry (what frontend/build.ts bundles): `/` creates a poll, `/poll/{id}` votes and shows
 * live results, any other path is not found. Plain DOM, no framework: two small pages do not earn one.
 * The page modules only declare; the work starts here, when the bundle runs.
 */
import { SITE_PAGES } from '../../config/site';
import { decodeSegment } from '../../domain/ids';
import { createApi, loadConfig } from './api';
import { captchaTokens } from './captcha';
import { createPage } from './create-page';
import { showNotFound } from './failures';
import { pollPage } from './poll-page';
import './app.css';

/** Shows the page for the current address. */
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
