import { describe, expect, it } from 'vitest';
import { createShutdownHooks } from '../../server/lifecycle/shutdown-hooks.ts';

describe('shutdown hooks', () => {
  it('stops workers newest first, so a worker started later (feeding another) stops before it', async () => {
    const order: string[] = [];
    const hooks = createShutdownHooks({ warn: () => undefined });
    hooks.register('cleanup', () => void order.push('cleanup'));
    hooks.register('outbox', async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      order.push('outbox');
    });
    expect(await hooks.run(1000)).toEqual([]);
    expect(order).toEqual(['outbox', 'cleanup']);
  });

  it('gives each hook a bounded time and still runs the rest when one hangs or fails', async () => {
    const warnings: string[] = [];
    const ran: string[] = [];
    const hooks = createShutdownHooks({ warn: (_details, message) => warnings.push(message) });
    hooks.register('last', () => void ran.push('last'));
    hooks.register('failing', () => {
      throw new Error('flush failed');
    });
    hooks.register('hanging', () => new Promise<void>(() => undefined));
    const started = Date.now();
    expect(await hooks.run(50)).toEqual(['hanging', 'failing']);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(ran).toEqual(['last']);
    expect(warnings).toEqual(['shutdown hook did not finish in time', 'shutdown hook failed']);
  });

  it('runs once, however many signals arrive', async () => {
    let runs = 0;
    const hooks = createShutdownHooks({ warn: () => undefined });
    hooks.register('count', () => void (runs += 1));
    await Promise.all([hooks.run(100), hooks.run(100)]);
    expect(runs).toBe(1);
  });
});
