import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { testBackends, type TestBackend } from '../../server/support/databases.ts';
import { CAMPAIGN_RESULTS_KEY, type CampaignFigures } from './campaign-results.ts';

/** The backends the campaign runs on: in-memory PGlite, and PostgreSQL (real parallelism) when TEST_DATABASE_URL is set. */
export function campaignBackends(): TestBackend[] {
  return testBackends().filter((backend) => backend.name !== 'pglite-disk');
}

/** Where this run's campaign figures go, so the global teardown prints one table over every campaign file. */
function resultsDirectory(): string | undefined {
  return inject(CAMPAIGN_RESULTS_KEY);
}

/** A campaign case's running figures, printed when it ends and added to the run's campaign table. */
export function campaignCounter(name: string) {
  const started = performance.now();
  let tried = 0;
  let failed = 0;
  return {
    /** Counts one probe; `ok` false counts it as a failure. */
    record(ok: boolean) {
      tried += 1;
      if (!ok) failed += 1;
    },
    get failed() {
      return failed;
    },
    /** Prints `name: tried N, failed M, in S s` and files the figures for the campaign table. */
    print() {
      const seconds = (performance.now() - started) / 1000;
      console.log(`[security] ${name}: tried ${tried}, failed ${failed}, in ${seconds.toFixed(1)} s`);
      const directory = resultsDirectory();
      if (!directory) return;
      const figures: CampaignFigures = { name, tried, failed, seconds };
      fs.writeFileSync(path.join(directory, `${crypto.randomUUID()}.json`), JSON.stringify(figures));
    },
  };
}
