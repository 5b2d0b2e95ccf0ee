import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onFreePort } from '../../../scripts/fixtures/free-port.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** What a finished command printed and how it exited. */
export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one of the project's TypeScript entry points as operators do: plain `node`, which strips the types. */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts the server (with Node's own `nodeOptions`, such as a loader hook) and resolves once it prints that it is running. */
export function startServer(env: Record<string, string>, nodeOptions: readonly string[] = []): Promise<{ child: ChildProcess; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeOptions, 'server/main.ts'], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Single sign-on is running')) resolve({ child, output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code} before it was ready:\n${output}`)));
  });
}

/** Starts the server on a free port with the environment `envFor` gives for it, on another one if it was taken meanwhile. */
export function startServerOnFreePort(
  envFor: (port: number) => Record<string, string>,
  nodeOptions: readonly string[] = [],
): Promise<{ port: number; child: ChildProcess; output: () => string }> {
  return onFreePort(async (port) => ({ port, ...(await startServer(envFor(port), nodeOptions)) }));
}

/** Stops a server with `signal` and waits for it to exit. */
export function stopServer(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    // A process that never started (spawn failed) or already ended has nothing to stop.
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    child.kill(signal);
  });
}
