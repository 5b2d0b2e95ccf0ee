import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { firstSignIn, logInAtProductAddress, newUser, nextAppStep, PASSWORD, stepUpWithApp } from './support/account-page.ts';
import { appCode, shownSecret } from './support/authenticator-app.ts';
import { outboxCode } from './support/dev-outbox.ts';

/** The e2e server that keeps the product's default: MFA required (playwright.config.ts). */
test.use({ baseURL: `http://localhost:${process.env.E2E_MFA_PORT}` });

test('the product\'s own address signs in to the account page; a second factor is added after a step-up and recovery codes are made', async ({ page, request }) => {
  const email = newUser('account');
  const secret = await firstSignIn(page, email);
  const methods = page.getByRole('region', { name: 'Sign-in methods' });
  await expect(methods.getByText('Authenticator app', { exact: true })).toBeVisible();

  await methods.getByRole('button', { name: 'Add email' }).click();
  await stepUpWithApp(page, secret, 1);
  await methods.getByRole('button', { name: 'Continue' }).click();
  await methods.getByLabel('Verification code').fill(await outboxCode(request, email));
  await methods.getByRole('button', { name: 'Add method' }).click();
  await expect(methods.getByText('The sign-in method was added.')).toBeVisible();
  await expect(methods.getByRole('listitem')).toHaveCount(2);

  const recovery = page.getByRole('region', { name: 'Recovery codes' });
  await recovery.getByRole('button', { name: 'Make a new set' }).click();
  const codes = recovery.getByRole('list', { name: 'Your new recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await expect(codes.first()).toHaveText(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
  await recovery.getByRole('button', { name: 'I have saved them' }).click();
  await expect(recovery.getByText(/10 of 10 codes left/)).toBeVisible();
});

test('"Sign out" on the account page ends the session: the provider confirms, and the next visit asks for the password', async ({ page }) => {
  const email = newUser('account-signout');
  await firstSignIn(page, email);
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveTitle('Sign out');
  await expect(page.getByText('You are signing out of My Account.')).toBeVisible();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/auth\/login\?client_id=sso-account-page/);
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();

  await page.goto('/auth/account');
  await expect(page).toHaveURL(/\/auth\/login\?client_id=sso-account-page/);
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
});

test('after a sign-in the account page opens at once: the provider\'s answer is redeemed once, with no second trip to the login screen', async ({ page }) => {
  const trips: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/oidc/token') trips.push('token');
    if (request.isNavigationRequest() && url.pathname === '/auth/account' && url.searchParams.has('code')) trips.push('code');
  });
  await firstSignIn(page, newUser('account-once'));
  await expect(page.getByRole('region', { name: 'Sign-in methods' }).getByRole('listitem')).toHaveCount(1);
  await page.waitForLoadState('networkidle');
  // The page's calls all start together; each used to find no token yet while the first redeemed the code, and sent
  // the browser back through the login screen for another code (looping when the redemption was slow).
  expect(trips).toEqual(['code', 'token']);
  await expect(page).toHaveURL(/\/auth\/account$/);
});

test('a factor is removed only after a step-up, and the last one stays', async ({ page, request }) => {
  const email = newUser('remove');
  const secret = await firstSignIn(page, email);
  const methods = page.getByRole('region', { name: 'Sign-in methods' });
  await methods.getByRole('button', { name: 'Add email' }).click();
  await stepUpWithApp(page, secret, 1);
  await methods.getByRole('button', { name: 'Continue' }).click();
  await methods.getByLabel('Verification code').fill(await outboxCode(request, email));
  await methods.getByRole('button', { name: 'Add method' }).click();
  await expect(methods.getByRole('listitem')).toHaveCount(2);

  await methods.getByRole('button', { name: 'Remove Authenticator app' }).click();
  await expect(methods.getByText('The sign-in method was removed.')).toBeVisible();
  await expect(methods.getByRole('listitem')).toHaveCount(1);
  await methods.getByRole('button', { name: 'Remove Email' }).click();
  await expect(methods.getByText('This is your only sign-in method. Add another one before you remove it.')).toBeVisible();
});

test('in a fresh browser a recovery code signs in once, says how many are left, and the new factor replaces the lost one', async ({ browser }) => {
  const email = newUser('recovery');
  const first = await browser.newPage();
  const secret = await firstSignIn(first, email);
  const recovery = first.getByRole('region', { name: 'Recovery codes' });
  await recovery.getByRole('button', { name: 'Make a new set' }).click();
  await stepUpWithApp(first, secret, 1);
  const shown = recovery.getByRole('list', { name: 'Your new recovery codes' }).getByRole('listitem');
  await expect(shown).toHaveCount(10);
  const code = (await shown.first().textContent()) ?? '';

  const lostPhone = await (await browser.newContext()).newPage();
  await logInAtProductAddress(lostPhone, email);
  await expect(lostPhone).toHaveTitle('Authenticate | Verify Using Authenticator App MFA');
  await lostPhone.getByRole('link', { name: 'Use a recovery code' }).click();
  await expect(lostPhone).toHaveTitle('Authenticate | Use a Recovery Code');
  await lostPhone.getByLabel('Recovery code').fill(code);
  await lostPhone.getByRole('button', { name: 'Verify' }).click();
  await expect(lostPhone).toHaveTitle('Authenticate | Add Alternative Authentication Method');
  // What happened, how many codes are left, and the lost authenticator removed once the new one works (27.14).
  await expect(lostPhone.getByRole('heading', { name: 'You signed in with a recovery code' })).toBeVisible();
  await expect(lostPhone.getByText(/you have 9 recovery codes left/)).toBeVisible();
  await lostPhone.getByRole('checkbox', { name: /Remove my other sign-in methods once the new one works/ }).check();
  await lostPhone.getByRole('radio', { name: /Authenticator app/ }).check();
  await lostPhone.getByRole('button', { name: 'Continue' }).click();
  const newSecret = await shownSecret(lostPhone);
  await lostPhone.getByRole('textbox', { name: 'Code' }).fill(appCode(newSecret));
  await lostPhone.getByRole('button', { name: 'Verify and finish' }).click();
  await expect(lostPhone).toHaveURL(/\/auth\/account$/);
  await expect(lostPhone.getByRole('region', { name: 'Recovery codes' }).getByText(/9 of 10 codes left/)).toBeVisible();
  await expect(lostPhone.getByRole('region', { name: 'Sign-in methods' }).getByRole('listitem')).toHaveCount(1);

  const again = await (await browser.newContext()).newPage();
  await logInAtProductAddress(again, email);
  await again.getByRole('link', { name: 'Use a recovery code' }).click();
  await again.getByLabel('Recovery code').fill(code);
  await again.getByRole('button', { name: 'Verify' }).click();
  await expect(again.getByText('That code is wrong or has expired.', { exact: false })).toBeVisible();
});

test('changing the password after re-authentication signs out the other browser and mails a notice', async ({ browser }) => {
  test.setTimeout(120_000);
  const email = newUser('password');
  const here = await browser.newPage();
  const secret = await firstSignIn(here, email);
  const there = await (await browser.newContext()).newPage();
  await logInAtProductAddress(there, email);
  await there.getByRole('textbox', { name: 'Code' }).fill(appCode(secret, 1));
  await there.getByRole('button', { name: 'Verify' }).click();
  await expect(there).toHaveURL(/\/auth\/account$/);
  await expect(here.getByRole('region', { name: 'Sessions' }).getByRole('listitem')).toHaveCount(1);
  await here.reload();
  await expect(here.getByRole('region', { name: 'Sessions' }).getByRole('listitem')).toHaveCount(2);

  const password = here.getByRole('region', { name: 'Password' });
  await password.getByLabel('Current password').fill(PASSWORD);
  await password.getByLabel('New password').fill('Fresh-Harbour-77!');
  await password.getByRole('button', { name: 'Change password' }).click();
  // Two of the app's codes are spent (setup, the other browser's sign-in): the step-up needs the next time step's.
  await nextAppStep(here);
  await stepUpWithApp(here, secret, 1);
  await expect(password.getByText('Your password was changed. Sessions signed out: 1.')).toBeVisible();
  await expect
    .poll(async () => {
      const outbox = await here.request.get(`/dev/outbox?to=${encodeURIComponent(email)}`, { headers: { accept: 'application/json' } });
      const { messages } = (await outbox.json()) as { messages: Array<{ subject: string; text: string }> };
      return messages.find((message) => message.subject === 'Your password was changed')?.text ?? '';
    })
    .toMatch(/This wasn't me/);

  await there.reload();
  await expect(there).toHaveURL(/\/auth\/login\?client_id=sso-account-page/);
  await expect(there.getByRole('heading', { name: 'Log in to proceed' })).toBeVisible();
});

test('"Sign out all other sessions" ends the demo client\'s session in another browser, through back-channel logout', async ({ browser }) => {
  // Two sign-ins and a step-up, and up to 30 s waiting for the authenticator's next step (nextAppStep): the budget of
  // the password change's test above, which does the same.
  test.setTimeout(120_000);
  const email = newUser('everywhere');
  const here = await browser.newPage();
  const secret = await firstSignIn(here, email);

  const there = await (await browser.newContext()).newPage();
  await there.goto('/demo/');
  await there.getByRole('link', { name: /Account Area/ }).click();
  await there.getByLabel('Email').fill(email);
  await there.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await there.getByRole('button', { name: 'Log In' }).click();
  await there.getByRole('textbox', { name: 'Code' }).fill(appCode(secret, 1));
  await there.getByRole('button', { name: 'Verify' }).click();
  await expect(there.getByText(`Signed in as ${email}`)).toBeVisible();

  await here.reload();
  const sessions = here.getByRole('region', { name: 'Sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await sessions.getByRole('button', { name: 'Sign out all other sessions' }).click();
  // Ending other sessions needs a fresh factor (ASVS 7.5.2); two of the app's codes are spent (setup, the demo's sign-in).
  await nextAppStep(here);
  await stepUpWithApp(here, secret, 1);
  await expect(sessions.getByRole('listitem')).toHaveCount(1);

  // The provider told the demo (its back-channel logout URI) that the session ended: the demo's own session is gone.
  await there.reload();
  await expect(there.getByRole('link', { name: /Sign in to Account Area/ })).toBeVisible();
  await expect(there.getByText(`Signed in as ${email}`)).toHaveCount(0);
});

/** The violations axe finds on the page as it is (WCAG 2.1 A/AA and best practice, as e2e/a11y.spec.ts checks). */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} — ${violation.help}`));
}

test('the account page passes axe at desktop and 360 px: the page, the step-up, new recovery codes and an error', async ({ page }) => {
  const email = newUser('axe');
  const secret = await firstSignIn(page, email);
  for (const size of [{ width: 1280, height: 800 }, { width: 360, height: 740 }]) {
    await page.setViewportSize(size);
    expect(await violations(page)).toEqual([]);
  }
  await page.getByRole('region', { name: 'Sign-in methods' }).getByRole('button', { name: 'Add email' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Please enter 6-digit verification code')).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.getByLabel('Code from your authenticator app').fill(appCode(secret, 1));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('region', { name: 'Sign-in methods' }).getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('region', { name: 'Recovery codes' }).getByRole('button', { name: 'Make a new set' }).click();
  await expect(page.getByRole('list', { name: 'Your new recovery codes' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
});
