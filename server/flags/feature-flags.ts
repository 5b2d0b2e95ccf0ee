import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLAG_DEFAULTS, type FlagKey } from '../../contract/product.ts';
import { ConfigError } from '../config.ts';

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

/** The flags one server process enforces, read once at start. */
export interface FeatureFlags {
  isOn(key: FlagKey): boolean;
  /** Every flag with its value, for the development flag service. */
  all(): FlagValues;
}

export function createFeatureFlags(values: FlagValues): FeatureFlags {
  const frozen = Object.freeze({ ...values });
  return { isOn: (key) => frozen[key], all: () => ({ ...frozen }) };
}
