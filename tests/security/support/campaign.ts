import { testBackends, type TestBackend } from '../../server/support/databases.ts';

/** The backends the campaign runs on: in-memory PGlite, and PostgreSQL (real parallelism) when TEST_DATABASE_URL is set. */
export function campaignBackends(): TestBackend[] {
  return testBackends().filter((backend) => backend.name !== 'pglite-disk');
}

/** A campaign's running figures, printed when it ends so CI logs show what was tried. */
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
    /** Prints `name: tried N, failed M, in S s`. */
    print() {
      console.log(`[security] ${name}: tried ${tried}, failed ${failed}, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    },
  };
}
