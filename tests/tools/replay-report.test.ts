/**
 * The replay report QA reads: each fixture that diverged, the step as recorded beside the screen as it is now, the
 * difference in words and the screens on the way, in one HTML file that needs nothing else to open.
 */
import { describe, expect, it } from 'vitest';
import { divergenceLines, replayReport, type Divergence } from '../../scripts/fixtures/replay-report.ts';

const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

const divergence: Divergence = {
  fixture: 'login/wrong-password',
  description: 'A wrong password shows the generic message.',
  step: 2,
  problem: 'expected headline "Log in to proceed", saw "Sign in <now>"',
  recorded: {
    sameScreen: true,
    route: 'login',
    title: 'Log In',
    headline: 'Log in to proceed',
    messages: ['Incorrect email or password.'],
    inputs: { password: '{{password}}' },
    action: { type: 'submit', label: 'Log In' },
    requests: [],
  },
  now: { url: '/auth/login?client_id=sso-dashboard', title: 'Log In', headline: 'Sign in <now>', messages: ['Incorrect email or password.'], screenshot: PNG },
  seen: ['login "Log In"'],
};

describe('the replay report', () => {
  it('shows the recorded step beside the screen now, with the difference, the screenshot inlined and text escaped', () => {
    const html = replayReport([divergence], 3);
    expect(html).toContain('<title>Fixture replay: 1 diverged</title>');
    expect(html).toContain('3 replayed as recorded, 1 diverged.');
    expect(html).toContain('<h2>login/wrong-password: step 2</h2>');
    expect(html).toContain('expected headline &#34;Log in to proceed&#34;, saw &#34;Sign in &#60;now&#62;&#34;');
    expect(html).toMatch(/<h3>Recorded<\/h3>.*<dd>Log in to proceed<\/dd>.*<li>password: \{\{password\}\}<\/li>.*<h3>Now<\/h3>.*<img [^>]*src="data:image\/png;base64,iVBORw0KGgo="/s);
    expect(html).not.toContain('<now>');
  });

  it('tells the terminal where the walk went, what was recorded and what the screen showed', () => {
    expect(divergenceLines(divergence, ['login', 'login', 'redirect'])).toEqual([
      '✗ login/wrong-password: step 2 (login): expected headline "Log in to proceed", saw "Sign in <now>"',
      '    screens seen: login "Log In"',
      '    recorded steps: login → login → redirect',
      '    on screen now: /auth/login?client_id=sso-dashboard "Log In", messages ["Incorrect email or password."]',
    ]);
    expect(divergenceLines({ ...divergence, step: 0, seen: [] }, [])[0]).toBe('✗ login/wrong-password: the walk: expected headline "Log in to proceed", saw "Sign in <now>"');
  });

  it('says so when nothing diverged', () => {
    expect(replayReport([], 5)).toContain('5 replayed as recorded, 0 diverged.');
  });
});
