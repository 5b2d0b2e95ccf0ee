/**
 * Where the main thread's CPU goes during a login, from V8's sampling profiler: each sample is charged to the
 * stage of the innermost frame that names one (so a query sent while loading the transaction counts as DB).
 * argon2 runs on libuv's thread pool, off this thread; any argon2 frame here would mean it blocks the event loop.
 */
import { Session } from 'node:inspector/promises';

export const STAGES = ['decrypt', 'transaction load', 'provider interaction and resume', 'grant', 'code', 'DB', 'argon2 on the event loop', 'HTTP, routing, other'] as const;
export type Stage = (typeof STAGES)[number];
/** The simulated browsers and their requests share the process; their CPU is reported apart, not as the server's. */
export const HARNESS = 'bench client (simulated browsers)';

/** Innermost first: the first rule a frame's script URL (and function) matches names the sample's stage. */
const RULES: ReadonlyArray<[Stage | typeof HARNESS, RegExp]> = [
  ['argon2 on the event loop', /@node-rs\/argon2|\/argon2[^/]*\.node/],
  ['DB', /@electric-sql\/pglite|\/node_modules\/pg(-[a-z]+)?\/|\/server\/db\/|\/server\/store\/(?!transactions)|\/server\/oidc\/adapter\.ts/],
  ['decrypt', /\/server\/auth\/credentials\.ts|\/server\/crypto\/|\/server\/store\/credential-nonces/],
  ['transaction load', /\/server\/store\/transactions\.ts|\/server\/api\/step-guard\.ts|\/server\/api\/transaction-cookie\.ts/],
  ['code', /oidc-provider\/lib\/models\/authorization_code|oidc-provider\/lib\/actions\/authorization\/process_response_types|oidc-provider\/lib\/actions\/authorization\/respond/],
  ['grant', /oidc-provider\/lib\/models\/grant|\/server\/oidc\/grants\.ts|\/server\/companies\//],
  ['provider interaction and resume', /oidc-provider\/|\/node_modules\/koa|\/server\/oidc\/|\/server\/sign-in\//],
  [HARNESS, /\/tests\/server\/support\/|\/bench\/|light-my-request/],
];

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
  children?: number[];
}

function stageOf(stack: ProfileNode[]): Stage | typeof HARNESS {
  for (const node of stack) {
    const where = node.callFrame.url;
    if (!where) continue;
    const rule = RULES.find(([, pattern]) => pattern.test(where));
    if (rule) return rule[0];
  }
  return 'HTTP, routing, other';
}

/** Profiles `work`; answers the CPU milliseconds per stage (idle and GC-only samples are left out, GC under "other"). */
export async function cpuByStage(work: () => Promise<void>): Promise<Map<Stage | typeof HARNESS, number>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const stopped = work().then(
    () => undefined,
    (error: unknown) => error,
  );
  const failure = await stopped;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  if (failure !== undefined) throw failure;
  const nodes = new Map<number, ProfileNode>(profile.nodes.map((node) => [node.id, node as ProfileNode]));
  const parent = new Map<number, number>();
  for (const node of nodes.values()) for (const child of node.children ?? []) parent.set(child, node.id);
  const stageCache = new Map<number, Stage | typeof HARNESS | undefined>();
  const totals = new Map<Stage | typeof HARNESS, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let index = 0; index < samples.length; index += 1) {
    const id = samples[index]!;
    if (!stageCache.has(id)) {
      const leaf = nodes.get(id)!;
      const idle = ['(idle)', '(program)', '(root)'].includes(leaf.callFrame.functionName);
      const stack: ProfileNode[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(nodes.get(at)!);
      stageCache.set(id, idle ? undefined : stageOf(stack));
    }
    const stage = stageCache.get(id);
    // A sample's time is the gap to the next one.
    const micros = deltas[index + 1] ?? 0;
    if (stage) totals.set(stage, (totals.get(stage) ?? 0) + micros / 1000);
  }
  return totals;
}
