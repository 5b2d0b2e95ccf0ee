// @vitest-environment node
/**
 * npm run bench judges issue 28's goals from one run's figures: per-vCPU rates beside Keycloak's published ones, and
 * one line per goal, met or not met, saying what it could not measure rather than guessing.
 */
import { describe, expect, it } from 'vitest';
import { goalSummary, KEYCLOAK_PER_VCPU, perVcpu } from '../../bench/support/goals.ts';

describe('the goal summary of npm run bench', () => {
  it("uses Keycloak's published capacity per vCPU", () => {
    expect(KEYCLOAK_PER_VCPU).toEqual({ passwordLogins: 15, refreshes: 120 });
    expect(perVcpu(142, 2)).toBe(71);
  });

  it('says met when every measured database reaches a goal, NOT met when one does not', () => {
    const lines = goalSummary({
      vcpus: 2,
      embedded: { mfaLogins: 130, mfaRatio: 0.52, passwordRatio: 0.62, databaseMs: 3, mfaCodeStepRoundTrips: 4, userinfoRoundTrips: 1, tokenRoundTrips: 3 },
      postgres: { mfaLogins: 110, mfaRatio: 0.48, passwordRatio: 0.55, databaseMs: 3.4, mfaCodeStepRoundTrips: 5, refreshes: 1300, userinfoRoundTrips: 2, tokenRoundTrips: 3 },
    });
    expect(lines).toEqual([
      'MFA sign-in ≥ 60/s per vCPU on both databases (Keycloak: 15): NOT met (embedded 65.0/s/vCPU, PostgreSQL 55.0/s/vCPU)',
      'the same as a share of argon2 alone, MFA sign-in ≥ 0.5 × argon2 alone on both databases: NOT met (embedded 0.52, PostgreSQL 0.48)',
      'password-only sign-in ≥ 0.6 × argon2 alone on both databases: NOT met (embedded 0.62, PostgreSQL 0.55)',
      "embedded database costs no more than PostgreSQL's client: met (database CPU per sign-in: embedded 3.00 ms, PostgreSQL 3.40 ms)",
      'MFA code step in ≤ 4 round trips: NOT met (embedded 4.0, PostgreSQL 5.0)',
      '/oidc/me in 1 round trip: NOT met (embedded 1, PostgreSQL 2)',
      'token endpoint (code and refresh) in ≤ 3 round trips: met (embedded 3, PostgreSQL 3)',
      'refresh ≥ 600/s per vCPU on PostgreSQL (Keycloak: 120): met (PostgreSQL 650.0/s/vCPU)',
    ]);
  });

  it("names argon2 alone's rate per vCPU as the ceiling of the MFA sign-in goal, which no password sign-in can pass", () => {
    const [mfa] = goalSummary({ vcpus: 2, embedded: { mfaLogins: 29.4, argon2PerSecond: 58.3 }, postgres: { mfaLogins: 29.5, argon2PerSecond: 54.7 } });
    expect(mfa).toBe(
      'MFA sign-in ≥ 60/s per vCPU on both databases (Keycloak: 15): NOT met (embedded 14.7/s/vCPU, PostgreSQL 14.8/s/vCPU); argon2id alone runs embedded 29.1/s/vCPU, PostgreSQL 27.4/s/vCPU on this machine, the ceiling of any sign-in that checks a password',
    );
  });

  it("compares the embedded engine's whole CPU with PostgreSQL's client, and names its server processes' share where it was read", () => {
    const lines = goalSummary({ vcpus: 2, embedded: { databaseMs: 15.95 }, postgres: { databaseMs: 5.91, databaseServerMs: 7.2 } });
    expect(lines[3]).toBe(
      "embedded database costs no more than PostgreSQL's client: NOT met (database CPU per sign-in: embedded 15.95 ms, PostgreSQL 5.91 ms in its client and 7.20 ms in its server processes, 13.11 ms whole)",
    );
  });

  it('says what a run did not measure instead of judging it', () => {
    const lines = goalSummary({ vcpus: 2, embedded: { mfaLogins: 130, databaseMs: 3 }, postgres: {} });
    expect(lines[0]).toBe('MFA sign-in ≥ 60/s per vCPU on both databases (Keycloak: 15): partly measured (embedded 65.0/s/vCPU)');
    expect(lines[3]).toBe("embedded database costs no more than PostgreSQL's client: not measured in this run (needs both databases)");
    expect(lines[5]).toBe('/oidc/me in 1 round trip: not measured in this run');
    expect(lines[7]).toBe('refresh ≥ 600/s per vCPU on PostgreSQL (Keycloak: 120): not measured in this run (needs TEST_DATABASE_URL)');
  });
});
