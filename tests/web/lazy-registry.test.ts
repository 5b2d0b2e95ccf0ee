// @vitest-environment node
/**
 * The lazily loaded step registry and the chunk loader under it: routes and challenges resolve
 * before any flow file arrives, a flow file is fetched once, a failed fetch may be retried, and
 * a fetch that hangs gives up after the limit.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { config } from '../../src/config.ts';
import { ChunkLoadError, loadChunk } from '../../src/services/chunk-loader.ts';
import type { FlowDefinition } from '../../src/engine/flow-types.ts';
import { createLazyRegistry, type FlowIndex } from '../../src/engine/step-registry.ts';

const first: FlowDefinition = { id: 'first', steps: { start: { route: 'start', title: 'Start', titleKeys: [], headline: 'start.headline' } } };
const later: FlowDefinition = {
  id: 'later',
  steps: { code: { route: 'code/:to', title: 'Code', titleKeys: [], challenges: ['EMAIL_MFA'], init: { method: 'GET', path: 'x', query: ['state'] }, headline: 'code.headline' } },
};
const indexOf = (flow: FlowDefinition): FlowIndex => ({
  id: flow.id,
  steps: Object.fromEntries(Object.entries(flow.steps).map(([id, step]) => [id, { route: step.route, title: step.title, titleKeys: step.titleKeys, challenges: step.challenges }])),
  entryQuery: Object.values(flow.steps).flatMap((step) => step.init?.query ?? []),
});

function registry(loadFlow = vi.fn(async () => later)) {
  return { loadFlow, steps: createLazyRegistry({ indexes: [indexOf(first), indexOf(later)], loaded: [first], loadFlow }) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the lazy step registry', () => {
  it('resolves the route, title and challenge of a step whose flow file is not loaded yet', () => {
    const { steps, loadFlow } = registry();
    expect(steps.get('code')).toMatchObject({ id: 'code', flowId: 'later', route: 'code/:to', title: 'Code' });
    expect(steps.forChallenge('EMAIL_MFA')?.id).toBe('code');
    expect(steps.loaded('code')).toBeUndefined();
    expect(steps.entryQuery).toEqual(['state']);
    expect(loadFlow).not.toHaveBeenCalled();
  });

  it('has the first screen whole at once, and fetches a later flow file once for all its steps', async () => {
    const { steps, loadFlow } = registry();
    expect(steps.loaded('start')?.headline).toBe('start.headline');
    const [a, b] = await Promise.all([steps.load('code'), steps.load('code')]);
    expect(a.headline).toBe('code.headline');
    expect(b).toBe(a);
    expect(steps.get('code')).toBe(a);
    expect(loadFlow).toHaveBeenCalledTimes(1);
  });

  it('tries a failed fetch again on the next load', async () => {
    const loadFlow = vi.fn<() => Promise<FlowDefinition>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(later);
    const { steps } = registry(loadFlow);
    await expect(steps.load('code')).rejects.toThrow('offline');
    await expect(steps.load('code')).resolves.toMatchObject({ headline: 'code.headline' });
  });

  it('refuses a step id no flow defines', async () => {
    await expect(registry().steps.load('nowhere')).rejects.toThrow('No flow defines step "nowhere"');
  });
});

describe('loadChunk', () => {
  it('answers what the chunk exports', async () => {
    await expect(loadChunk(async () => 'module', 1_000)).resolves.toBe('module');
  });

  it('turns a failed download into a ChunkLoadError', async () => {
    await expect(loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')), 1_000)).rejects.toBeInstanceOf(ChunkLoadError);
  });

  it('gives up on a download that has not arrived within the limit (2 minutes in the app)', async () => {
    vi.useFakeTimers();
    const pending = loadChunk(() => new Promise<never>(() => {}), config.chunkLoadTimeoutMs);
    let settled = false;
    pending.catch(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(2 * 60 * 1_000 - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).rejects.toThrow('took longer than 120000 ms');
  });
});
