/**
 * A stand-in for fast-equals (aliased in vite.config.ts for the browser bundle). rjsf uses only
 * `createCustomEqual`, once, for its `deepEquals`: plain JSON-like data (schemas, ui schemas, form data,
 * registries) compared structurally, any function equal to any function, circular references followed
 * once. That contract fits in a page of code, at a fraction of the library's bytes.
 */

type Equal = (a: unknown, b: unknown) => boolean;

function sameStructure(a: unknown, b: unknown, seen: WeakMap<object, object>): boolean {
  // SameValueZero, as fast-equals: NaN equals NaN, 0 equals -0.
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return true;
  if (typeof a === 'function') return typeof b === 'function';
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  // A pair already being compared higher up is assumed equal, so a cycle ends instead of recursing forever.
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  if (a instanceof Date) return a.getTime() === (b as Date).getTime();
  if (a instanceof RegExp) return String(a) === String(b);
  if (a instanceof Map || a instanceof Set) {
    const other = b as Map<unknown, unknown> | Set<unknown>;
    if (a.size !== other.size) return false;
    if (a instanceof Set) return [...a].every((value) => (other as Set<unknown>).has(value));
    return [...a].every(([key, value]) => (other as Map<unknown, unknown>).has(key) && sameStructure(value, (other as Map<unknown, unknown>).get(key), seen));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(right, key) && sameStructure(left[key], right[key], seen));
}

/** fast-equals' factory, as rjsf calls it; the comparison is the one described above whatever the options. */
export function createCustomEqual(): Equal {
  return (a, b) => sameStructure(a, b, new WeakMap());
}
