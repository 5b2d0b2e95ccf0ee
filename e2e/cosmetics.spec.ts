/**
 * What a person sees of the layout, in a real browser at desktop and phone widths: a focused choice keeps its whole
 * focus outline, the authenticator QR code does not push the code field down when it arrives, and "Show password"
 * stays beside its field at 360 px.
 */
import { expect, test, type Page } from '@playwright/test';
import { MFA_USER_PASSWORD, newMfaServerUser } from './support/mfa-server-users.ts';

/** The e2e server with the product's default, MFA required (playwright.config.ts). */
test.use({ baseURL: `http://localhost:${process.env.E2E_MFA_PORT}` });

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 360, height: 740 } },
] as const;

/** Signs in with the password from the demo client, up to the choice of a second factor. */
async function toMethodChoice(page: Page, email: string): Promise<void> {
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(MFA_USER_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('radio', { name: /Authenticator app/ })).toBeVisible();
}

for (const { name, viewport } of WIDTHS) {
  test.describe(`at ${name} width`, () => {
    test.use({ viewport });

    test('a focused method shows its whole focus outline, none of it cut off by the list', async ({ page }) => {
      await toMethodChoice(page, newMfaServerUser(`focus-${name}`));
      await page.getByRole('radio').first().focus();
      const fit = await page.evaluate(() => {
        const choice = document.querySelector('.choice:focus-within') as HTMLElement;
        const list = choice.closest('.choice-options') as HTMLElement;
        const style = getComputedStyle(choice);
        const reach = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
        const outline = choice.getBoundingClientRect();
        const box = list.getBoundingClientRect();
        return {
          reach,
          left: outline.left - reach - box.left,
          right: box.right - (outline.right + reach),
          top: outline.top - reach - box.top,
        };
      });
      expect(fit.reach).toBeGreaterThan(0);
      expect(fit.left).toBeGreaterThanOrEqual(0);
      expect(fit.right).toBeGreaterThanOrEqual(0);
      expect(fit.top).toBeGreaterThanOrEqual(0);
    });

    test('the authenticator set-up keeps the QR panel\'s room, so the code field does not move when the QR code arrives', async ({ page }) => {
      await toMethodChoice(page, newMfaServerUser(`qr-${name}`));
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      // Hold the QR code's chunk back, as a slow network does, until the field's place has been measured.
      await page.route(/\/auth\/assets\/qr-code-[^/]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole('radio', { name: /Authenticator app/ }).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      const code = page.getByRole('textbox', { name: 'Code' });
      await expect(code).toBeVisible();
      const before = await code.boundingBox();
      release();
      await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
      const after = await code.boundingBox();
      expect(Math.round(after?.y ?? -1)).toBe(Math.round(before?.y ?? -2));
    });

    test('"Show password" stays on the line of its field', async ({ page }) => {
      await page.goto('/demo/');
      await page.getByRole('link', { name: /Account Area/ }).click();
      const field = await page.getByLabel('Password', { exact: true }).boundingBox();
      const toggle = await page.getByRole('button', { name: 'Show password' }).boundingBox();
      expect(toggle?.y).toBe(field?.y);
      expect((toggle?.x ?? 0) > (field?.x ?? 0) + (field?.width ?? 0)).toBe(true);
    });
  });
}
