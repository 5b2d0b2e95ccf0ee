/**
 * The campaign's passkey registration cases (issue 23, finding 13): a new passkey's COSE key must be what its
 * algorithm says, over every algorithm we offer against every key type and curve; the answer's id must be the
 * credential its authenticator data names; and a credential registered to anyone is never registered again.
 * Each case is a row of the campaign table, on every campaign backend.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { PASSKEY_ALGORITHMS } from '../../server/mfa/passkey-keys.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { signInToAccountPage, type AccountPage } from '../server/support/account.ts';
import { fakeClock } from '../server/support/fakes.ts';
import { answer } from '../server/support/mfa.ts';
import { cbor, SoftwareAuthenticator, type CeremonyInput } from '../server/support/software-authenticator.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from '../server/support/test-app.ts';
import { campaignBackends, campaignCounter } from './support/campaign.ts';

const PAGE = { origin: new URL(TEST_PUBLIC_URL).origin };
const ES384 = -35;
const PS256 = -37;

/** A key pair as COSE key parameters (without the algorithm), with the private key that signs for it. */
interface KeyKind {
  name: string;
  /** The one algorithm this key type and curve signs with, among the ones we offer. */
  signsWith?: number;
  params: Array<[number, unknown]>;
  privateKey: crypto.KeyObject;
}

const raw = (value: string | undefined) => Buffer.from(value ?? '', 'base64url');

function okp(name: string, type: 'ed25519' | 'ed448', crv: number, signsWith?: number): KeyKind {
  const { publicKey, privateKey } = type === 'ed25519' ? crypto.generateKeyPairSync('ed25519') : crypto.generateKeyPairSync('ed448');
  return { name, signsWith, privateKey, params: [[1, 1], [-1, crv], [-2, raw(publicKey.export({ format: 'jwk' }).x)]] };
}

function ec2(name: string, namedCurve: string, crv: number, signsWith?: number): KeyKind {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve });
  const jwk = publicKey.export({ format: 'jwk' });
  return { name, signsWith, privateKey, params: [[1, 2], [-1, crv], [-2, raw(jwk.x)], [-3, raw(jwk.y)]] };
}

function rsa(name: string, modulusLength: number, signsWith?: number): KeyKind {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength });
  const jwk = publicKey.export({ format: 'jwk' });
  return { name, signsWith, privateKey, params: [[1, 3], [-1, raw(jwk.n)], [-2, raw(jwk.e)]] };
}

/** Every key type and curve COSE names for signing, and the algorithm each may be registered with. */
function keyKinds(): KeyKind[] {
  const p256 = ec2('EC2 P-256', 'prime256v1', 1, -7);
  return [
    okp('OKP Ed25519', 'ed25519', 6, -8),
    okp('OKP Ed448', 'ed448', 7),
    p256,
    ec2('EC2 P-384', 'secp384r1', 2),
    ec2('EC2 P-521', 'secp521r1', 3),
    ec2('EC2 secp256k1', 'secp256k1', 8),
    rsa('RSA 2048', 2048, -257),
    // A P-256 key that says it is on P-384, and a symmetric key (kty 4) that is no public key at all.
    { ...p256, name: 'EC2 P-256 coordinates named P-384', signsWith: undefined, params: p256.params.map(([label, value]) => [label, label === -1 ? 2 : value]) },
    { ...p256, name: 'Symmetric (kty 4)', signsWith: undefined, params: [[1, 4], [-1, crypto.randomBytes(32)]] },
  ];
}

/** Keys with the right type and algorithm that are still no sound key, or an algorithm we never offered. */
function unsoundKeys(kinds: KeyKind[]): Array<{ name: string; cose: Buffer; privateKey: crypto.KeyObject }> {
  const of = (name: string) => kinds.find((kind) => kind.name === name)!;
  const p256 = of('EC2 P-256');
  const ed25519 = of('OKP Ed25519');
  const weak = rsa('RSA 1024', 1024);
  const coseOf = (params: Array<[number, unknown]>, alg: number) => cbor(new Map<number, unknown>([[1, params[0]![1]], [3, alg], ...params.slice(1)]));
  return [
    { name: 'ES256 with a point off the curve', cose: coseOf([[1, 2], [-1, 1], [-2, crypto.randomBytes(32)], [-3, crypto.randomBytes(32)]], -7), privateKey: p256.privateKey },
    { name: 'ES256 without its y coordinate', cose: coseOf(p256.params.slice(0, 3), -7), privateKey: p256.privateKey },
    { name: 'EdDSA with a 31-byte key', cose: coseOf([[1, 1], [-1, 6], [-2, crypto.randomBytes(31)]], -8), privateKey: ed25519.privateKey },
    { name: 'RS256 with a 1024-bit modulus', cose: coseOf(weak.params, -257), privateKey: weak.privateKey },
    { name: 'ES384 on P-384 (never offered)', cose: coseOf(of('EC2 P-384').params, ES384), privateKey: of('EC2 P-384').privateKey },
    { name: 'PS256 on RSA (never offered)', cose: coseOf(of('RSA 2048').params, PS256), privateKey: of('RSA 2048').privateKey },
  ];
}

interface Factors {
  factors: Array<{ id: string; kind: string }>;
}
interface PasskeyAnswer {
  passkey: { options: { challenge: string; rp: { id?: string }; user: { id: string }; allowCredentials?: { id: string }[] } };
}

describe.each(campaignBackends().map((backend) => [backend.name, backend] as const))('passkey registration on %s', (name, backend) => {
  const clock = fakeClock(Date.now());
  let server: TestApp;
  let people = 0;
  const tick = () => {
    clock.advance(60);
    return clock.now();
  };

  beforeAll(async () => {
    server = await startTestApp({ backend, clock: clock.now });
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  /** A person on the account page, just stepped up, ready to add passkeys. */
  async function steppedUp(): Promise<AccountPage> {
    people += 1;
    const person = { email: `passkey-registration-${people}-${name}@example.com`, password: 'Passkey-Campaign-Passw0rd!' };
    await addUser({ db: server.db }, person);
    const page = await signInToAccountPage(server, person, tick);
    const app = answer<Factors>(await page.call('GET', '/account/factors')).factors.find((factor) => factor.kind === 'totp')!;
    answer(await page.call('POST', '/account/step-up', { factorId: app.id, code: totpCodeAt(page.secret, tick()) }));
    return page;
  }

  const passkeyCount = async (page: AccountPage) => answer<Factors>(await page.call('GET', '/account/factors')).factors.filter((factor) => factor.kind === 'passkey').length;

  /** Asks for registration options and answers them with `authenticator`; the answer to the account page's POST. */
  async function register(page: AccountPage, authenticator: SoftwareAuthenticator, input: Partial<CeremonyInput>) {
    const started = answer<PasskeyAnswer>(await page.call('POST', '/account/factors', { kind: 'passkey' }));
    return page.call('POST', '/account/passkeys', { credential: authenticator.create(started.passkey.options, { ...PAGE, ...input }), name: 'Campaign key' });
  }

  /** Whether `page` can step up with the newest passkey of `authenticator` (the key it registered really signs). */
  async function stepsUpWith(page: AccountPage, authenticator: SoftwareAuthenticator): Promise<boolean> {
    const passkey = answer<Factors>(await page.call('GET', '/account/factors')).factors.findLast((factor) => factor.kind === 'passkey')!;
    const asked = answer<PasskeyAnswer>(await page.call('POST', '/account/step-up', { factorId: passkey.id }));
    const proved = await page.call('POST', '/account/step-up', { factorId: passkey.id, credential: authenticator.get(asked.passkey.options, PAGE) });
    return proved.statusCode === 200;
  }

  it('23.13: a COSE key is registered only with the algorithm of its key type and curve, every offered algorithm against every key type', async () => {
    const counter = campaignCounter(`23.13 passkey COSE algorithm against key type on ${name} (keys kept whose algorithm is not their type's, or refused when it is)`);
    const page = await steppedUp();
    const kinds = keyKinds();
    expect(PASSKEY_ALGORITHMS.length).toBeGreaterThan(0);
    for (const alg of PASSKEY_ALGORITHMS) {
      for (const kind of kinds) {
        const authenticator = new SoftwareAuthenticator();
        const cose = cbor(new Map<number, unknown>([[1, kind.params[0]![1]], [3, alg], ...kind.params.slice(1)]));
        const before = await passkeyCount(page);
        const added = await register(page, authenticator, { key: { cose, privateKey: kind.privateKey } });
        const after = await passkeyCount(page);
        if (kind.signsWith === alg) {
          counter.record(added.statusCode === 200 && after === before + 1 && (await stepsUpWith(page, authenticator)));
        } else {
          counter.record(added.statusCode === 400 && added.json().error_code === 'passkey.invalid' && after === before);
        }
      }
    }
    for (const unsound of unsoundKeys(kinds)) {
      const before = await passkeyCount(page);
      const added = await register(page, new SoftwareAuthenticator(), { key: unsound });
      counter.record(added.statusCode === 400 && added.json().error_code === 'passkey.invalid' && (await passkeyCount(page)) === before);
    }
    counter.print();
    expect(counter.failed).toBe(0);
  });

  it('23.13: the answer\'s id is the credential its authenticator data names, and a credential registered to anyone is not registered again', async () => {
    const counter = campaignCounter(`23.13 passkey credential ids on ${name} (answers kept whose id is not their authenticator's, or a credential registered twice)`);
    const owner = await steppedUp();
    const ownerKey = new SoftwareAuthenticator();
    answer(await register(owner, ownerKey, {}));
    const registeredId = ownerKey.credentials[0]!.id;
    const other = await steppedUp();
    const refusals: Array<[Partial<CeremonyInput>, string]> = [
      [{ answeredId: crypto.randomBytes(16).toString('base64url') }, 'passkey.invalid'],
      [{ answeredId: registeredId.toString('base64url') }, 'passkey.invalid'],
      [{ credentialId: registeredId }, 'passkey.already_registered'],
    ];
    for (const page of [other, owner]) {
      for (const [input, code] of refusals) {
        const before = await passkeyCount(page);
        const added = await register(page, new SoftwareAuthenticator(), input);
        counter.record(added.json().error_code === code && (await passkeyCount(page)) === before);
      }
    }
    // The owner's passkey is still theirs alone, and still signs.
    counter.record((await passkeyCount(owner)) === 1 && (await stepsUpWith(owner, ownerKey)));
    counter.print();
    expect(counter.failed).toBe(0);
  });
});
