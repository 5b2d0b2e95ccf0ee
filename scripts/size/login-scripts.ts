/**
 * The JavaScript a user pays for to log in, counted the way the browser fetches it: every script requested from
 * opening a client app's link to the login screen until the credentials are submitted, each URL once, with the
 * gzipped size of the built file (dist/web/assets) it serves.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../fixtures/chromium.ts';
import { ROOT } from '../fixtures/fixture-files.ts';
import { startLiveServer } from '../fixtures/live-server.ts';

/** The login screen's script budget, gzipped. */
export const LOGIN_JS_GZIP_BUDGET = 135 * 1024;

/** One script the browser fetched, and what it costs gzipped. */
export interface FetchedScript {
  url: string;
  /** The file under dist/web/assets. */
  name: string;
  gzipBytes: number;
}

const ASSET_PATH = '/auth/assets/';
const DEMO_USER = { email: 'demo@example.com', password: 'Demo-Passw0rd!' };

/** Starts the built server, follows the demo client's link, submits the demo user's credentials; answers the scripts fetched on the way. */
export async function scriptsToLogIn(): Promise<FetchedScript[]> {
  const server = await startLiveServer();
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext()).newPage();
    const urls = new Set<string>();
    page.on('request', (request) => {
      if (request.resourceType() === 'script') urls.add(request.url());
    });
    await page.goto(`${server.origin}/demo/login?client=sso-account`);
    await page.waitForURL(/[?&]interaction=/);
    await page.locator('main[aria-busy="false"] input[name="email"]:enabled').fill(DEMO_USER.email);
    await page.locator('input[name="password"]').fill(DEMO_USER.password);
    const submitted = page.waitForResponse((response) => response.url().includes('/api/sso/v3/auth/login') && response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Log In' }).click();
    await submitted;
    return [...urls].map((url) => {
      const path = new URL(url).pathname;
      if (!path.startsWith(ASSET_PATH)) throw new Error(`the login screen fetched a script from outside the app's assets: ${url}`);
      const name = path.slice(ASSET_PATH.length);
      return { url, name, gzipBytes: gzipSync(readFileSync(join(ROOT, 'dist', 'web', 'assets', name)), { level: 9 }).length };
    });
  } finally {
    await browser.close();
    await server.stop();
  }
}
