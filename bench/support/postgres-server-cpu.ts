/**
 * The CPU a PostgreSQL server on this machine spends, read from /proc: every `postgres` process's user and system
 * time. The bench charges the embedded database its whole engine (PGlite runs in the process), but PostgreSQL only
 * its client; this is the other half, so the two can be compared whole. Linux only, and only for a server on this
 * machine: anywhere else it answers undefined rather than a guess. It counts the whole server (any other client's
 * work too), so it is read on a quiet server.
 *
 * Each process is counted by its own difference, sampled while the work runs: a backend that ends during the work
 * (the pool closes a connection that stayed idle while logins ran one at a time) takes its CPU time with it, so a
 * sum of all processes taken before and after would lose everything that backend had spent since it started, and
 * could even come out below zero. Sampled every SAMPLE_MS, a process that ends loses at most that last moment.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Hosts a server of this machine is reached by. */
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '']);

/** How often the processes' CPU times are read while the work runs. */
const SAMPLE_MS = 50;

/** CPU ticks (user plus system) by process, keyed by pid and start time so a reused pid is another process. */
export type TicksByProcess = ReadonlyMap<string, number>;

/** Clock ticks per second, the unit of /proc's CPU times. */
function clockTicks(): number | undefined {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim());
    return Number.isFinite(ticks) && ticks > 0 ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** A reader of every `postgres` process's ticks; it remembers which pids are not PostgreSQL's, so a sample reads few files. */
function postgresTicksReader(): () => TicksByProcess | undefined {
  const others = new Set<string>();
  return () => {
    let pids: string[];
    try {
      pids = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && !others.has(entry));
    } catch {
      return undefined;
    }
    const ticks = new Map<string, number>();
    for (const pid of pids) {
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // The process ended between the listing and the read.
      }
      // "pid (comm) state ppid …": the name may hold spaces, so fields are counted after its closing parenthesis.
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (name !== 'postgres') {
        others.add(pid);
        continue;
      }
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime are fields 14 and 15 of the line, starttime field 22: 12, 13 and 20 after the name.
      ticks.set(`${pid}@${fields[19]}`, Number(fields[11]) + Number(fields[12]));
    }
    return ticks;
  };
}

/**
 * The ticks the processes `read` reports spent while `work` ran, each process by its own difference: from its
 * first reading (0 for one that started during the work) to its last, read every `sampleMs` and once at the end.
 * Undefined when `read` cannot say.
 */
export async function ticksDuring(read: () => TicksByProcess | undefined, work: () => Promise<void>, sampleMs = SAMPLE_MS): Promise<number | undefined> {
  const first = read();
  const last = new Map(first);
  let readable = first !== undefined;
  const sample = () => {
    const now = read();
    if (now === undefined) readable = false;
    for (const [key, ticks] of now ?? []) last.set(key, ticks);
  };
  const sampler = setInterval(sample, sampleMs);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  sample();
  if (!readable || first === undefined) return undefined;
  let spent = 0;
  for (const [key, ticks] of last) spent += ticks - (first.get(key) ?? 0);
  return spent;
}

/** Measures the local PostgreSQL server's CPU around `work`, in ms; undefined when the server is elsewhere or /proc is not there. */
export async function postgresServerCpuMs(databaseUrl: string | undefined, work: () => Promise<void>): Promise<number | undefined> {
  const local = databaseUrl !== undefined && LOCAL_HOSTS.has(new URL(databaseUrl).hostname);
  const ticksPerSecond = local ? clockTicks() : undefined;
  if (ticksPerSecond === undefined) {
    await work();
    return undefined;
  }
  const ticks = await ticksDuring(postgresTicksReader(), work);
  return ticks === undefined ? undefined : (ticks / ticksPerSecond) * 1000;
}
