/**
 * flows:check, the events check: every analytics event a flow names is in the event catalogue, and the
 * problem line says exactly where to add it. Also the shipped catalogue itself: every flow has its
 * success and error variants, and every event the spec names is listed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEvents } from '../../scripts/flows-check/check-events.ts';
import { type CheckRow, describeChecks, stepOf } from './support/check-project.ts';

const F = 'flows/start.json';

const rows: Record<string, CheckRow> = {
  'a step event missing from the catalogue': {
    check: checkEvents,
    change: (p) => void (stepOf(p, 'sign-in').events = { success: 'sign_in_succes', error: 'sign_in_error' }),
    lines: [
      `${F}:steps.sign-in.events.success — names event "sign_in_succes", which the event catalogue does not list — add "sign_in_succes": "<when it is sent>" under "flows"."start" in flows/shell/events.json (step sign-in), or use one of: sign_in_success, sign_in_error`,
    ],
  },
  'a back-to-app event missing from the catalogue': {
    check: checkEvents,
    change: (p) => void (stepOf(p, 'done').backToApp = { label: 'start.submit', navigate: 'redirect_to', event: 'done_back' }),
    lines: [
      `${F}:steps.done.backToApp.event — names event "done_back", which the event catalogue does not list — add "done_back": "<when it is sent>" under "flows"."start" in flows/shell/events.json (step done), or use one of: sign_in_error, sign_in_success`,
    ],
  },
};

describeChecks('flows:check events check', [checkEvents], rows);

describe('the event catalogue', () => {
  const catalogue = JSON.parse(readFileSync(join(import.meta.dirname, '../../flows/shell/events.json'), 'utf8')) as { flows: Record<string, Record<string, string>> };
  const events = Object.values(catalogue.flows).flatMap((flow) => Object.keys(flow));

  it('lists every event the spec names, the bot-check load error among them', () => {
    const named = [
      'login_success', 'login_error_response', 'login_email_otp_request_success', 'login_email_otp_verify_success', 'login_totp_success',
      'login_sms_verify_success', 'invitation_login_expired', 'register_redirect_to_app', 'invitation_redirect_to_app', 'cancel_totp_verify',
      'resent_verification_link', 'auth_init_error', 'bot_check_load_error',
    ];
    expect(named.filter((event) => !events.includes(event))).toEqual([]);
  });

  it.each(Object.entries(catalogue.flows).filter(([flow]) => flow !== 'shell'))('gives flow %s a success and an error variant', (_flow, flowEvents) => {
    const names = Object.keys(flowEvents);
    expect(names.some((name) => name.endsWith('_success'))).toBe(true);
    expect(names.some((name) => /_error(_response)?$/.test(name))).toBe(true);
  });
});
