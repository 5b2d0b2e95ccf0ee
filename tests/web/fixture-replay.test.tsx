/**
 * Every fixture in tests/fixtures/flows, replayed against the engine: the app renders at the
 * fixture's start, the recorded answers stand in for the server, and each screen, message and
 * request must go as recorded. Fixtures marked `"engine": false` (a passkey ceremony) replay on a live server only. A divergence names the fixture, the step and the difference.
 */
import { describe, it, vi } from 'vitest';
import { fixtureNames, loadFixture } from '../../scripts/fixtures/fixture-files.ts';
import { flowRouteOf } from '../../scripts/fixtures/flow-routes.ts';
import { walkFixture } from '../../scripts/fixtures/walk-fixture.ts';
import { createEngineDriver, engineLookup } from './support/engine-driver.ts';

vi.mock('../../src/ui/browser-navigation.ts', () => ({ leaveTo: vi.fn() }));

const routeOf = flowRouteOf();

describe('fixture replay against the engine', () => {
  const replayable = fixtureNames().filter((name) => loadFixture(name).engine !== false);
  it.each(replayable)('replays %s', async (name) => {
    const fixture = loadFixture(name);
    const driver = await createEngineDriver(fixture);
    const lookup = engineLookup();
    try {
      await walkFixture(fixture, { name, driver, routeOf, value: async (placeholder) => lookup(placeholder), timeoutMs: 3_000 });
    } finally {
      driver.stop();
    }
  });
});
