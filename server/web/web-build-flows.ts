/**
 * The built web app must be made from the flows the server enforces: the build embeds their content hash
 * (dist/web/flow-graph.json, written by the web build from the same compiled graph), and the server refuses to start
 * on a build made from other flows, or one that names none, since its screens would call steps out of step with the server's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { WEB_BUILD_FLOWS_FILE } from '../../contract/flow-sources.ts';

/** The server cannot start: the built web app was made from other flows than the server's. */
export class StaleWebBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StaleWebBuildError';
  }
}

/** Why the web app built into `webDir` does not match flows of content hash `hash`, or undefined when it does. */
export function webBuildMismatch(webDir: string, hash: string): string | undefined {
  const file = path.join(webDir, WEB_BUILD_FLOWS_FILE);
  if (!fs.existsSync(path.join(webDir, 'index.html'))) return `the web app is not built (${path.join(webDir, 'index.html')} is missing); fix: run npm run build`;
  let built: unknown;
  try {
    built = (JSON.parse(fs.readFileSync(file, 'utf8')) as { hash?: unknown }).hash;
  } catch {
    built = undefined;
  }
  if (typeof built !== 'string') return `the web app in ${webDir} does not say which flows it was built from (${file} is missing or unreadable); fix: run npm run build`;
  if (built !== hash) {
    return `the web app in ${webDir} was built from other flows (hash ${built.slice(0, 12)}) than the server enforces (flows/ and schemas/, hash ${hash.slice(0, 12)}); fix: run npm run build`;
  }
  return undefined;
}

/** Throws StaleWebBuildError when the web app built into `webDir` was not made from flows of content hash `hash`. */
export function assertWebBuildMatches(webDir: string, hash: string): void {
  const mismatch = webBuildMismatch(webDir, hash);
  if (mismatch) throw new StaleWebBuildError(`The server does not start: ${mismatch}`);
}
