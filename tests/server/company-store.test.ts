import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { purgeExpired } from '../../server/store/cleanup.ts';
import { addMembership, DuplicateCompanyError, insertCompany, listCompanies, markCompanyUsed, membershipsOf } from '../../server/store/companies.ts';
import { claimRenewal, createInvitation, ensureInvitedUser, findInvitation, redeemInvitation } from '../../server/store/invitations.ts';
import { bindSignInCompany, chooseSignInCompany, grantCompany } from '../../server/store/sign-in-companies.ts';
import { testBackends } from './support/databases.ts';

const PARALLEL = 50;
const HOUR = 3600 * 1000;

describe.each(testBackends())('companies and invitations in the store on $name', (backend) => {
  let db: Database;
  beforeAll(async () => {
    db = await backend.open();
    await db.query("insert into clients (client_id, name, redirect_uris, is_public) values ('app', 'App', '{https://app.example/cb}', true)");
  });
  afterAll(async () => {
    await db.close();
  });

  it('refuses a second company of the same name, whatever its case and spacing', async () => {
    await insertCompany(db, 'Acme Payments');
    await expect(insertCompany(db, '  acme   PAYMENTS ')).rejects.toBeInstanceOf(DuplicateCompanyError);
    expect((await listCompanies(db)).map((company) => company.name)).toContain('Acme Payments');
  });

  it('lists a member\'s companies with the last used first, then by name', async () => {
    const user = await ensureInvitedUser(db, 'member@example.com');
    const [zeta, alpha, mid] = [await insertCompany(db, 'Zeta'), await insertCompany(db, 'alpha'), await insertCompany(db, 'Mid')];
    for (const company of [zeta, alpha, mid]) await addMembership(db, user.id, company.id);
    expect(await addMembership(db, user.id, zeta.id)).toBe(false);
    expect((await membershipsOf(db, user.id)).map((company) => company.name)).toEqual(['alpha', 'Mid', 'Zeta']);
    await markCompanyUsed(db, user.id, zeta.id, new Date());
    expect((await membershipsOf(db, user.id)).map((company) => company.name)).toEqual(['Zeta', 'alpha', 'Mid']);
  });

  it('redeems an invitation once out of 50 parallel tries, and never after it expired', async () => {
    const user = await ensureInvitedUser(db, 'race@example.com');
    const now = new Date();
    const token = await createInvitation(db, { userId: user.id, companyId: null, clientId: 'app', now, expiresAt: new Date(now.getTime() + HOUR) });
    const invitation = (await findInvitation(db, token))!;
    const results = await Promise.all(Array.from({ length: PARALLEL }, () => redeemInvitation(db, invitation.id, now)));
    expect(results.filter(Boolean)).toHaveLength(1);

    const late = await createInvitation(db, { userId: user.id, companyId: null, clientId: 'app', now, expiresAt: new Date(now.getTime() + HOUR) });
    expect(await redeemInvitation(db, (await findInvitation(db, late))!.id, new Date(now.getTime() + 2 * HOUR))).toBe(false);
  });

  it('renews a dead invitation once, however many ask at the same time', async () => {
    const user = await ensureInvitedUser(db, 'renew@example.com');
    const now = new Date();
    const token = await createInvitation(db, { userId: user.id, companyId: null, clientId: 'app', now, expiresAt: now });
    const claims = await Promise.all(Array.from({ length: PARALLEL }, () => claimRenewal(db, token, now)));
    expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
  });

  it('keeps a sign-in\'s company with its grant, and forgets it once the grant has expired', async () => {
    const user = await ensureInvitedUser(db, 'grant@example.com');
    const company = await insertCompany(db, 'Grant Co');
    await addMembership(db, user.id, company.id);
    await chooseSignInCompany(db, { interactionUid: 'interaction-1', companyId: company.id, expiresAt: new Date(Date.now() + HOUR) });
    await bindSignInCompany(db, { interactionUid: 'interaction-1', grantId: 'grant-1', userId: user.id, expiresAt: new Date(Date.now() + HOUR), now: new Date() });
    expect(await grantCompany(db, 'grant-1', user.id)).toEqual({ id: company.id, name: 'Grant Co' });
    await purgeExpired(db, new Date(Date.now() + 2 * HOUR));
    expect(await grantCompany(db, 'grant-1', user.id)).toBeUndefined();
  });
});
