import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLAG_DEFAULTS, type FlagKey } from '../../contract/product.ts';
import { ConfigError } from '../config-readers.ts';

export type FlagValues = Record<FlagKey, boolean>;

/** The flag file shipped with the product; FEATURE_FLAGS_FILE points elsewhere. */
export const DEFAULT_FLAGS_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../flags/feature-flags.json');

const isFlagKey = (key: string): key is FlagKey => Object.hasOwn(FLAG_DEFAULTS, key);

/** Reads a flag file: an object of boolean values keyed by flag; unknown keys and non-booleans are refused by name. */
export function readFlagFile(file: string): FlagValues {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`FEATURE_FLAGS_FILE ${file} could not be read as JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(`FEATURE_FLAGS_FILE ${file} must hold a JSON object`);
  const values: FlagValues = { ...FLAG_DEFAULTS };
  for (const [key, value] of Object.entries(parsed)) {
    if (key.startsWith('$')) continue;
    if (!isFlagKey(key)) throw new ConfigError(`FEATURE_FLAGS_FILE ${file}: unknown flag "${key}" (known: ${Object.keys(FLAG_DEFAULTS).join(', ')})`);
    if (typeof value !== 'boolean') throw new ConfigError(`FEATURE_FLAGS_FILE ${file}: flag "${key}" must be true or false`);
    values[key] = value;
  }
  return values;
}

/** The flags one server process enforces: read at start, then re-read every LIMITS.FLAGS_REFRESH_INTERVAL. */
export interface FeatureFlags {
  isOn(key: FlagKey): boolean;
  /** Every flag with its value, for the development flag service. */
  all(): FlagValues;
  /** Reads the flags again now. A read that fails keeps the last good values and is reported. */
  refresh(): void;
  /** Stops re-reading. */
  stop(): void;
}

/** Where a failed re-read is reported; the flags in force stay as they were. */
export interface FlagLog {
  warn(details: object, text: string): void;
}

/**
 * Flags from `read` (the flag file), re-read every `intervalMs`, so an operator's edit reaches every process
 * without a restart; `overrides` (tests) win over the file. A broken edit never switches anything: the last good
 * values stay in force until the file reads well again.
 */
export function createFeatureFlags(deps: { read: () => FlagValues; overrides?: Partial<FlagValues>; intervalMs?: number; log?: FlagLog }): FeatureFlags {
  const load = () => Object.freeze({ ...deps.read(), ...deps.overrides });
  let current = load();
  const refresh = () => {
    try {
      current = load();
    } catch (error) {
      deps.log?.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'the feature flags could not be re-read; the last good values stay in force');
    }
  };
  const timer = deps.intervalMs === undefined ? undefined : setInterval(refresh, deps.intervalMs);
  timer?.unref();
  return {
    isOn: (key) => current[key],
    all: () => ({ ...current }),
    refresh,
    stop: () => clearInterval(timer),
  };
}
