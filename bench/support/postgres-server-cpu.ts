/**
 * The CPU a PostgreSQL server on this machine spends, read from /proc: every `postgres` process's user and system
 * time. The bench charges the embedded database its whole engine (PGlite runs in the process), but PostgreSQL only
 * its client; this is the other half, so the two can be compared whole. Linux only, and only for a server on this
 * machine: anywhere else it answers undefined rather than a guess. It counts the whole server (any other client's
 * work too) and not a process that ends during the run, so it is read on a quiet server with a pool that stays open.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Hosts a server of this machine is reached by. */
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '']);

/** Clock ticks per second, the unit of /proc's CPU times. */
function clockTicks(): number | undefined {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim());
    return Number.isFinite(ticks) && ticks > 0 ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** Ticks of user plus system time of every process named `postgres`, or undefined where /proc cannot say. */
function postgresTicks(): number | undefined {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  let ticks = 0;
  for (const pid of entries) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // The process ended between the listing and the read.
    }
    // "pid (comm) state ppid …": the name may hold spaces, so fields are counted after its closing parenthesis.
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    if (name !== 'postgres') continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks;
}

/** Measures the local PostgreSQL server's CPU around `work`, in ms; undefined when the server is elsewhere or /proc is not there. */
export async function postgresServerCpuMs(databaseUrl: string | undefined, work: () => Promise<void>): Promise<number | undefined> {
  const local = databaseUrl !== undefined && LOCAL_HOSTS.has(new URL(databaseUrl).hostname);
  const ticksPerSecond = local ? clockTicks() : undefined;
  const before = ticksPerSecond === undefined ? undefined : postgresTicks();
  await work();
  const after = before === undefined ? undefined : postgresTicks();
  if (ticksPerSecond === undefined || before === undefined || after === undefined) return undefined;
  return ((after - before) / ticksPerSecond) * 1000;
}
