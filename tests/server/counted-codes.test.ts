import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/database.ts';
import type { OneTimeCodes } from '../../server/auth/one-time-codes.ts';
import { countedCodes } from '../../server/observability/counted-codes.ts';

describe('the one-time codes counted for the metrics', () => {
  it('still send each code issued: the delivery reaches the store, which calls it with the code', async () => {
    const transaction = {} as Queryable;
    const store = {
      async issue(_userId: string, _purpose: string, _now: Date, deliver?: (tx: Queryable, code: string) => Promise<void>) {
        await deliver?.(transaction, '123456');
        return '123456';
      },
    } as unknown as OneTimeCodes;
    const sent: string[] = [];
    const counted: string[] = [];
    const codes = countedCodes(store, { codeSent: (purpose) => counted.push(purpose), codeVerified: () => undefined });

    const code = await codes.issue('user-1', 'mfa_sms', new Date(), async (tx, issued) => {
      expect(tx).toBe(transaction);
      sent.push(issued);
    });

    expect(code).toBe('123456');
    expect(sent).toEqual(['123456']);
    expect(counted).toEqual(['mfa_sms']);
  });
});
