import net from 'node:net';

/**
 * TRUST_PROXY as Fastify's `trustProxy` takes it: `false` (the default: the client is the TCP peer), a hop count
 * (trust that many proxies in front of the server), or the addresses and CIDR ranges of the proxies to trust.
 * `true` (trust any X-Forwarded-For) is refused: anyone could then choose the address per-IP limits count.
 */
export type TrustProxy = false | number | readonly string[];

/** Parses TRUST_PROXY; returns the value or the one-line reason it is wrong. */
export function parseTrustProxy(raw: string | undefined): { value: TrustProxy } | { problem: string } {
  const value = raw?.trim() ?? '';
  if (value === '' || ['false', 'off', 'no', '0'].includes(value.toLowerCase())) return { value: false };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) return { problem: `TRUST_PROXY must be a hop count from 0 to 10 or a list of proxy addresses (got "${raw}")` };
    return { value: hops };
  }
  if (['true', 'on', 'yes', '*'].includes(value.toLowerCase())) {
    return { problem: `TRUST_PROXY cannot trust every proxy: name a hop count (1) or the proxies' addresses, e.g. 10.0.0.0/8 (got "${raw}")` };
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (bad.length > 0) {
    return { problem: `TRUST_PROXY must be a hop count or comma-separated IP addresses and CIDR ranges; not an address: ${bad.map((entry) => `"${entry}"`).join(', ')}` };
  }
  return { value: entries };
}

function isAddressOrRange(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  if (extra !== undefined || address === undefined) return false;
  const family = net.isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY in the form Fastify's types take: a hop count becomes proxy-addr's trust function (trust the first n hops). */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}

/** Whether the TCP peer `address` is a proxy TRUST_PROXY trusts (with a hop count, the peer always is). */
export function trustsPeer(trust: TrustProxy, address: string | undefined): boolean {
  if (trust === false || address === undefined) return false;
  if (typeof trust === 'number') return trust > 0;
  const peer = address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
  const family = net.isIP(peer) === 6 ? 'ipv6' : 'ipv4';
  const list = new net.BlockList();
  for (const entry of trust) {
    const [base = '', prefix] = entry.split('/');
    const entryFamily = net.isIP(base) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(base, entryFamily);
    else list.addSubnet(base, Number(prefix), entryFamily);
  }
  return list.check(peer, family);
}
