/**
 * The generated navigation test: every step of every flow (read from flows/*.json) is reached through the real
 * server with MFA on (the default), then the browser's Back, Forward and Reload are pressed, and after each the
 * screen must be usable: a visible heading, an enabled action or link, no empty choice list, no text blaming the
 * server. A finished sign-in pressed Back into must show the honest "You're signed in" screen.
 *
 * Walks share a sign-in across the steps they pass; each step is passed with its example inputs from its flow file,
 * or by its entry in `pass` when only the run knows its input (e2e/support/navigation-passes.ts). A step no walk
 * reaches fails the test by name: give it a walk (WALKS, e2e/support/navigation-walks.ts) or a way past the step before it.
 */
import { authorizationQuery } from './support/authorization-query.ts';
import { expect, test, type Page } from '@playwright/test';
import { readFlowSteps, stepAt, type FlowStep } from './support/flow-steps.ts';
import { BY_ADDRESS_ONLY, SETTLE_MS, wayPast } from './support/navigation-passes.ts';
import { rememberWalk, WALKS, type WalkPlan } from './support/navigation-walks.ts';
import { demoUrl } from './support/demo-origin.ts';

test.use({ baseURL: `http://localhost:${process.env.E2E_MFA_PORT}` });

/** Text that blames the server or a failure, never acceptable after Back, Forward or Reload. */
const BLAME = /on our side|something went wrong|page not found/i;

const STEPS = readFlowSteps();

/** Counts of what the test covered. */
const covered = { steps: new Set<string>(), actions: 0, byAddress: new Set<string>() };

/** Waits for the screen to settle: no spinner, no busy card, a heading. */
async function settled(page: Page, where = 'a screen'): Promise<void> {
  await expect(page.locator('main[aria-busy="true"]'), `${where}: done loading`).toHaveCount(0, { timeout: SETTLE_MS });
  await expect(page.locator('main .spinner'), `${where}: no spinner left (at ${page.url()})`).toHaveCount(0, { timeout: SETTLE_MS });
}

/** The step a flow screen shows now, or undefined outside the web app (the client app). */
function currentStep(page: Page): FlowStep | undefined {
  return stepAt(STEPS, new URL(page.url()).pathname);
}

/** Asserts a usable screen: heading, an enabled action or link, no empty choice list, no blame. */
async function expectUsable(page: Page, context: string): Promise<void> {
  await settled(page, context);
  const where = `${context} (now at ${new URL(page.url()).pathname})`;
  // Back past the first page of a fresh browser leaves for its start page: nothing of ours to check there.
  if (!page.url().startsWith('http')) return;
  if (!new URL(page.url()).pathname.startsWith('/auth/')) {
    // Back or Forward may leave the web app for the client app: its own page must have loaded.
    await expect(page.locator('body'), where).not.toBeEmpty();
    return;
  }
  await expect(page.locator('main h1').first(), `${where}: a visible heading`).toBeVisible({ timeout: SETTLE_MS });
  // An end screen by design (flows' `terminal`) may leave the way on to the frame's help link.
  const terminal = currentStep(page)?.terminal === true;
  const ways = page.locator(terminal ? '.help-link' : 'main a[href]:visible, main button:not([disabled]):not(.back-button):visible');
  await expect.poll(() => ways.count(), { message: `${where}: an enabled action or link` }).toBeGreaterThan(0);
  for (const group of await page.locator('main [role="radiogroup"]').all()) {
    await expect(group.getByRole('radio'), `${where}: a choice list with choices`).not.toHaveCount(0);
  }
  await expect(page.locator('main'), `${where}: no text blaming the server`).not.toContainText(BLAME);
}

/** Back, Forward, Reload on the step shown now, each followed by the usability check. */
async function pressBackForwardReload(page: Page, step: FlowStep): Promise<void> {
  await page.goBack();
  await expectUsable(page, `Back from ${step.id}`);
  await page.goForward();
  await expectUsable(page, `Forward to ${step.id}`);
  await page.reload();
  await expectUsable(page, `Reload of ${step.id}`);
  covered.actions += 3;
  covered.steps.add(step.id);
}

/** Waits until the page shows a flow step with a screen of its own (or has left for the client app); the step, if any. */
async function arrive(page: Page, previous: string | undefined): Promise<FlowStep | undefined> {
  await expect
    .poll(
      () => {
        const step = currentStep(page);
        return !new URL(page.url()).pathname.startsWith('/auth/') || (step !== undefined && !step.passThrough);
      },
      { timeout: SETTLE_MS, message: `a screen after ${previous ?? 'the start'} (at ${page.url()})` },
    )
    .toBe(true);
  await settled(page);
  return currentStep(page);
}

/**
 * Runs `plan` and checks every step it passes that is not covered yet. After the checks the step is reached afresh
 * (its history entry replayed by a new run of the walk) when Back, Forward or Reload moved the sign-in on.
 */
async function runWalk(page: Page, plan: WalkPlan): Promise<void> {
  const walk = plan.walk();
  await plan.start(page, walk);
  let previous: string | undefined;
  const seen: string[] = [];
  for (let moves = 0; moves < 20; moves += 1) {
    const step = await arrive(page, previous);
    seen.push(step?.id ?? new URL(page.url()).pathname);
    if (!step) {
      // Back from the client app into the finished sign-in: the honest screen of item 3, never blame.
      if (!covered.steps.has('sign-in-ended')) {
        await page.goBack();
        await expectUsable(page, 'Back from the client app after signing in');
        await expect(page.locator('main h1')).toHaveText(/signed in to|sign-in has ended/i);
        const ended = currentStep(page);
        if (ended) await pressBackForwardReload(page, ended);
      }
      return;
    }
    if (!covered.steps.has(step.id)) {
      await expectUsable(page, `${step.id} as reached`);
      const address = page.url();
      await pressBackForwardReload(page, step);
      // Back, Forward and Reload may have moved the sign-in (a used code, a choice asked again): go on from the step's address.
      if (page.url() !== address) await page.goto(address);
      const again = await arrive(page, undefined);
      if (again?.id !== step.id) {
        await runWalk(page, plan);
        return;
      }
    }
    if ((step.id === plan.endAt && moves > 0) || step.terminal) return;
    const passStep = wayPast(step.id);
    if (!passStep) throw new Error(`The walk "${plan.name}" reached step "${step.id}" (flow ${step.flowId}) and has no way past it: give it example inputs or an entry in \`pass\``);
    // The address before the step is passed: a fast answer may move the page on before the pass returns, and an
    // address taken after it would then wait in vain for a move that has happened.
    const before = page.url();
    await passStep(page, walk);
    rememberWalk(walk);
    previous = step.id;
    // Most steps move to another address, or stay showing the server's refusal; one that stays without one (a code
    // screen's next code) is read again as it is once the wait is over.
    const refusal = page.locator('main [role="alert"]');
    await expect
      .poll(async () => page.url() !== before || (await refusal.count()) > 0, { timeout: SETTLE_MS })
      .toBe(true)
      .catch(() => undefined);
    if (page.url() === before && (await refusal.count()) > 0) {
      throw new Error(`The walk "${plan.name}" could not pass ${step.id}: ${await refusal.first().textContent()} (${seen.join(' → ')})`);
    }
  }
  throw new Error(`The walk "${plan.name}" did not end within 20 screens: ${seen.join(' → ')}`);
}

test.describe.serial('every step of every flow', () => {
  // The walks hand on what later ones need (an account with the app set up, a notice's link), so they run in order.
  for (const plan of WALKS) {
    test(`survives Back, Forward and Reload: ${plan.name}`, async ({ browser }) => {
      test.setTimeout(3 * 60_000);
      const context = await browser.newContext();
      await runWalk(await context.newPage(), plan);
      await context.close();
    });
  }

  test('opens by its address from a fresh browser, and no step is left unwalked', async ({ browser }) => {
    test.setTimeout(3 * 60_000);
    // Every step opened by its address ("a link from anywhere"): a usable screen, never blame.
    const context = await browser.newContext();
    const page = await context.newPage();
    // The query a client app's own link carries: a complete authorize request, PKCE (S256) and state included.
    const client = authorizationQuery('sso-account', demoUrl(`http://localhost:${process.env.E2E_MFA_PORT}`, '/demo/user-management/auth/callback')).toString();
    for (const step of STEPS) {
      const route = step.route.replace(/\/:[a-z_]+\?/g, '').replace(/:[a-z_]+/g, 'x');
      await page.goto(`/auth/${route}?${client}`);
      // "Page not found" is the not-found step's own, honest headline.
      if (step.id === 'not-found') {
        await expect(page.locator('main h1')).toHaveText(/page not found/i);
        covered.byAddress.add(step.id);
        continue;
      }
      await expectUsable(page, `${step.id} opened by its address`).catch((error: unknown) => {
        throw new Error(`${step.id} opened by its address: ${String(error)}`);
      });
      covered.byAddress.add(step.id);
    }
    await context.close();
    const unreached = STEPS.filter((step) => !covered.steps.has(step.id) && !step.passThrough && BY_ADDRESS_ONLY[step.id] === undefined).map((step) => `${step.flowId}/${step.id}`);
    console.log(
      `navigation: ${covered.steps.size} steps walked with Back, Forward and Reload (${covered.actions} actions), ${covered.byAddress.size} of ${STEPS.length} steps opened by address`,
    );
    expect(unreached, 'steps no walk reached: give each a walk (WALKS) or a way past the step before it (pass)').toEqual([]);
  });
});
