/**
 * Whether passkeys can work at all here. WebAuthn takes the host of PUBLIC_URL as the relying party's id, and browsers
 * refuse an IP address there (only a domain name may be one), so on an IP address every ceremony would fail.
 */
import net from 'node:net';
import type { Config } from '../config.ts';

/** The host WebAuthn would be given, without an IPv6 address's brackets. */
function publicHost(config: Pick<Config, 'publicUrl'>): string {
  return new URL(config.publicUrl).hostname.replace(/^\[(.*)\]$/, '$1');
}

/** False when PUBLIC_URL's host is an IP address, which no browser accepts as a passkey's relying party. */
export function passkeysPossible(config: Pick<Config, 'publicUrl'>): boolean {
  return net.isIP(publicHost(config)) === 0;
}

/** The operator's start-up warning when passkeys cannot work, or undefined when they can. */
export function passkeyHostWarning(config: Pick<Config, 'publicUrl'>): string | undefined {
  if (passkeysPossible(config)) return undefined;
  return `warning: passkeys are switched off: PUBLIC_URL (${config.publicUrl}) is on an IP address, and browsers only create and use passkeys for a domain name (WebAuthn's relying party id). Use a host name, even localhost, to offer them.`;
}
