// The inbox in a real browser: Debian's chromium driven by playwright-core, against the inbox's page, the
// bookshop and a club sign-up server, all on 127.0.0.1. People sign in with their links, fill and send the forms,
// and read what came back. INBOX_SCREENSHOTS=update writes the screenshots the README shows.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ListeningBookshop, listenBookshop } from '@boomerang/bookshop';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKSHOP_PLAN } from './bookshop-plan.js';
import type { Flow } from './flow.js';
import { type RunningInbox, startInbox } from './inbox.js';
import { type FormsServer, startFormsServer } from './test-support/forms-server.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
const appDir = dirname(dirname(fileURLToPath(import.meta.url)));
const screenshotDir =
  process.env.INBOX_SCREENSHOTS === 'update'
    ? join(appDir, 'screenshots')
    : mkdtempSync(join(tmpdir(), 'inbox-screenshots-'));
const ROOTS = [
  { uri: 'file:///srv/club/shared', name: 'shared' },
  { uri: 'file:///home/alice/lists', name: 'lists' },
];
/** Generous: the CI machine may be busy, and each answer goes through a resumer and the server. */
const WAIT = 30_000;

const missing = existsSync(CHROMIUM)
  ? undefined
  : `${CHROMIUM} is missing: apt-get install chromium to run the browser tests`;
if (missing !== undefined && process.env.CI)
  throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);

describe.skipIf(missing !== undefined)(`the inbox in chromium ${missing ?? ''}`, () => {
  let bookshop: ListeningBookshop;
  let club: FormsServer;
  let inbox: RunningInbox;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  const plan = new Map<string, Flow>();

  beforeAll(async () => {
    bookshop = await listenBookshop({ logger: { warn: () => {} } }, { port: 0, host: '127.0.0.1' });
    club = await startFormsServer();
    inbox = await startInbox({
      servers: { bookshop: bookshop.endpoint.url.href, club: club.url.href },
      jobs: [],
      roots: ROOTS,
      resumer: { pollMs: 50 },
    });
    for (const flow of await inbox.runJobs(BOOKSHOP_PLAN)) plan.set(flow.note ?? flow.tool, flow);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
    mkdirSync(screenshotDir, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await inbox?.close();
    await club?.close();
    await bookshop?.endpoint.close();
    if (process.env.INBOX_SCREENSHOTS !== 'update') rmSync(screenshotDir, { recursive: true, force: true });
  });

  /** A new browser context signed in as `person` (its link sets the session cookie), on the list. */
  async function signedIn(person: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(`${person}: ${error.message}`));
    await page.goto(inbox.signInUrl(person));
    await page.getByRole('heading', { name: 'Pending questions' }).waitFor();
    return page;
  }

  const flowOf = (note: string) => {
    const flow = [...plan.values()].find((f) => f.note?.startsWith(note));
    if (flow === undefined) throw new Error(`no flow "${note}"`);
    return flow;
  };
  const open = (page: Page, flow: Flow) => page.goto(new URL(`/flows/${flow.id}`, inbox.origin).href);
  const shoot = (page: Page, name: string) =>
    page.screenshot({ path: join(screenshotDir, name), fullPage: true });
  const section = (page: Page, text: string) => page.locator('section.question').filter({ hasText: text });
  async function parked(job: Parameters<RunningInbox['runJobs']>[0][number]): Promise<Flow> {
    const [flow] = await inbox.runJobs([job]);
    if (flow?.status !== 'pending')
      throw new Error(`expected a pending flow, got ${flow?.status}: ${flow?.error}`);
    return flow;
  }

  it('lists the pending questions that concern you, and no one else’s', async () => {
    const page = await signedIn('alice');
    const mine = page.locator('section', { has: page.getByRole('heading', { name: /Waiting for you/ }) });
    await expect.poll(() => mine.locator('li.flow-row').count()).toBe(5);
    expect(await page.locator('main').textContent()).not.toContain('The Left Hand of Darkness');
    await shoot(page, 'list.png');
    const bob = await signedIn('bob');
    const bobs = bob.locator('section', { has: bob.getByRole('heading', { name: /Waiting for you/ }) });
    await expect.poll(() => bobs.locator('li.flow-row').count()).toBe(5);
    expect(await bobs.textContent()).toContain('The Left Hand of Darkness');
    expect(await bobs.textContent()).not.toContain('Order Solaris for the book club');
  });

  it('answers a two-round order through the page: round 1, then round 2, then the result', async () => {
    const page = await signedIn('alice');
    await open(page, flowOf('Order Solaris'));
    const backorder = section(page, 'Backorder it?');
    await backorder.getByRole('group', { name: 'confirm' }).getByLabel('Yes').check();
    await backorder.getByLabel('sms').check();
    await backorder.getByLabel('Price ceiling (EUR)').fill('40');
    const gift = section(page, 'Is it a gift?');
    await gift.getByLabel('Gift-wrap it?').check();
    await gift.getByLabel('Card note').fill('For the club');
    await shoot(page, 'round-1.png');
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByText('How should "Solaris" ship?').waitFor({ timeout: WAIT });
    expect(await page.getByRole('heading', { name: 'History' }).isVisible()).toBe(true);
    await page.getByLabel('Shipping').selectOption({ label: 'Express (EUR 6, 2 days)' });
    await page.getByLabel('Copies').fill('2');
    await page.getByLabel('Binding').selectOption('hardcover');
    await page.getByRole('button', { name: 'Send answers' }).click();
    const result = page.locator('.result-text');
    await result.waitFor({ timeout: WAIT });
    expect(await result.textContent()).toMatch(
      /^Ordered 2 × "Solaris" \(hardcover\) on backorder, gift-wrapped with a card: "For the club": express shipping, arriving in 23 days, EUR 34\.00; we will tell you by email and sms\.$/,
    );
    expect(await page.locator('.history').textContent()).toMatch(
      /Round 1: answered by alice.*Round 2: answered by alice/s,
    );
    await shoot(page, 'result.png');
  });

  it('fills every field kind from the keyboard, each control labelled, and sends with Enter', async () => {
    const flow = await parked({ tool: 'sign_up', server: 'club', arguments: { club: 'reading' } });
    const page = await signedIn('bob');
    await open(page, flow);
    // Every control the person can reach has a label (a <label for>, or the legend of its group).
    const unlabelled = await page.evaluate(() =>
      [
        ...document.querySelectorAll<HTMLInputElement>(
          'form.answer input:not([type=hidden]), form.answer select, form.answer textarea',
        ),
      ]
        .filter(
          (el) =>
            (el.labels?.length ?? 0) === 0 &&
            el.closest('fieldset legend') === null &&
            el.closest('fieldset')?.querySelector('legend') == null,
        )
        .map((el) => el.name),
    );
    expect(unlabelled).toEqual([]);
    await page.getByLabel('Full name').focus();
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q0-f1');
    await page.keyboard.type('ada@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('https://ada.example');
    await page.getByLabel('Birthday').fill('1815-12-10');
    await page.getByLabel('Arrival').fill('2026-07-28T18:45');
    await page.getByLabel('Guests').fill('3');
    await page.getByLabel('Budget (EUR)').fill('99.5');
    await page.getByLabel('Send me the newsletter').focus();
    await page.keyboard.press('Space');
    await page.getByRole('group', { name: 'I accept the club rules' }).getByLabel('Yes').check();
    await page.getByLabel('Room').selectOption('suite');
    await page.getByLabel('Meal').selectOption({ label: 'Fish' });
    await page.getByLabel('crime').check();
    await page.getByLabel('Afternoon').check();
    await shoot(page, 'every-field.png');
    await page.getByLabel('Full name').focus();
    await page.keyboard.press('Enter');
    const result = page.locator('.result-text');
    await result.waitFor({ timeout: WAIT });
    const sent = JSON.parse(((await result.textContent()) ?? '').replace(/^Signed up: /, ''));
    expect(sent).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      website: 'https://ada.example',
      birthday: '1815-12-10',
      arrival: '2026-07-28T18:45:00Z',
      guests: 3,
      budget: 99.5,
      newsletter: true,
      rules: true,
      room: 'suite',
      meal: 'fish',
      topics: ['sf', 'crime'],
      slots: ['pm'],
    });
  });

  it('an invalid answer: the messages show before anything is sent; fixed, it goes through', async () => {
    const flow = await parked({ tool: 'sign_up', server: 'club', arguments: { club: 'chess' } });
    const page = await signedIn('alice');
    await open(page, flow);
    await page.getByLabel('Email').fill('ada-at-example');
    await page.getByLabel('Guests').fill('9');
    await page.getByLabel('sf').uncheck();
    await page.getByRole('button', { name: 'Send answers' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'Please fix these' });
    await summary.waitFor();
    expect(await summary.locator('li').allTextContents()).toEqual([
      'Full name: this field is required',
      'Email: an email address, please',
      'Guests: at most 4',
      'I accept the club rules: this field is required',
      'Room: this field is required',
      'Topics: pick at least 1',
    ]);
    expect(await page.locator('#q0-f5-error').textContent()).toBe('at most 4');
    expect(await page.getByLabel('Guests').getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toBe(new URL(`/flows/${flow.id}`, inbox.origin).href);
    expect((await inbox.store.get(flow.id))?.status).toBe('pending');
    await shoot(page, 'validation.png');
    // Typing in a field clears its message.
    await page.getByLabel('Guests').fill('2');
    expect(await page.locator('#q0-f5-error').textContent()).toBe('');
    await page.getByLabel('Full name').fill('Ada');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('group', { name: 'I accept the club rules' }).getByLabel('No').check();
    await page.getByLabel('Room').selectOption('single');
    await page.getByLabel('fantasy').check();
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.locator('.result-text').waitFor({ timeout: WAIT });
    expect(await page.locator('.result-text').textContent()).toContain('"rules":false');
  });

  it('declines: the server gets the decline and answers with an error the model can read', async () => {
    const page = await signedIn('bob');
    await open(page, flowOf('Order Dune'));
    await page.getByRole('button', { name: 'Decline' }).click();
    const result = page.locator('.error-result');
    await result.waitFor({ timeout: WAIT });
    expect(await result.textContent()).toMatch(/The tool reported an error.*declined/s);
  });

  it('answers one question of a round and declines the other (each has its own response)', async () => {
    const flow = await parked({ tool: 'order_book', arguments: { title: 'Solaris' } });
    const page = await signedIn('bob');
    await open(page, flow);
    const gift = section(page, 'Is it a gift?');
    await gift.getByRole('group', { name: 'Your response' }).getByLabel('Decline').check();
    expect(await gift.getByLabel('Gift-wrap it?').isDisabled()).toBe(true);
    await section(page, 'Backorder it?').getByRole('group', { name: 'confirm' }).getByLabel('No').check();
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.locator('.result-text').waitFor({ timeout: WAIT });
    expect(await page.locator('.result-text').textContent()).toBe('Not ordered: "Solaris" is out of stock.');
  });

  it('two people answer the same flow: the first wins, the second is told so', async () => {
    const flow = await parked({ tool: 'write_blurb', arguments: { title: 'Solaris' } });
    const alice = await signedIn('alice');
    const bob = await signedIn('bob');
    await open(alice, flow);
    await open(bob, flow);
    await alice.getByLabel('Your reply').fill('An ocean that thinks back.');
    await bob.getByLabel('Your reply').fill('Love, grief and a sentient sea.');
    await alice.getByRole('button', { name: 'Send answers' }).click();
    await alice
      .getByText(/Answered by alice|Shelf-talker/)
      .first()
      .waitFor({ timeout: WAIT });
    await bob.getByRole('button', { name: 'Send answers' }).click();
    await bob.getByText('answered this round first').waitFor({ timeout: WAIT });
    expect(await bob.locator('.refused').textContent()).toBe(
      'alice answered this round first; your answers were not sent.',
    );
    await shoot(bob, 'conflict.png');
    await alice.locator('.result-text').waitFor({ timeout: WAIT });
    expect(await alice.locator('.result-text').textContent()).toBe(
      'Shelf-talker for "Solaris" (human:alice): An ocean that thinks back.',
    );
    expect(await inbox.store.rounds(flow.id)).toHaveLength(1);
  });

  it('signing out revokes the session: the cookie, replayed in another browser, opens nothing', async () => {
    const page = await signedIn('alice');
    const captured = await page.context().cookies();
    expect(captured.map((cookie) => cookie.name)).toEqual(['inbox_session']);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Signed out' }).waitFor();
    const replay = await browser.newContext();
    contexts.push(replay);
    await replay.addCookies(captured);
    const thief = await replay.newPage();
    const response = await thief.goto(inbox.origin.href);
    expect(response?.status()).toBe(401);
    expect(await thief.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
  });

  it('an expired flow is shown as such; answers sent after the deadline are refused, not retried', async () => {
    const page = await signedIn('alice');
    const flow = await parked({ tool: 'pick_fruit', server: 'club', roundSeconds: 5 });
    await open(page, flow);
    expect(await page.getByRole('combobox', { name: 'Fruit' }).locator('option').allTextContents()).toEqual([
      'Choose…',
      'Apple',
      'Banana',
    ]);
    await page.getByRole('combobox', { name: 'Fruit' }).selectOption({ label: 'Banana' });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, flow.deadline - Date.now() + 200)));
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByText('This round expired before your answers arrived').waitFor({ timeout: WAIT });
    expect(await page.locator('.problem-box h2').textContent()).toBe('Expired');
    await shoot(page, 'expired.png');
    await page.goto(inbox.origin.href);
    const finished = page.locator('section', { has: page.getByRole('heading', { name: /Finished/ }) });
    expect(await finished.locator('li', { hasText: 'pick_fruit' }).locator('.badge').textContent()).toBe(
      'Expired',
    );
    expect((await inbox.store.get(flow.id))?.status).toBe('expired');
  });

  it('a legacy titled enum picks its value by its title', async () => {
    const flow = await parked({ tool: 'pick_fruit', server: 'club' });
    const page = await signedIn('alice');
    await open(page, flow);
    await page.getByRole('combobox', { name: 'Fruit' }).selectOption({ label: 'Apple' });
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.locator('.result-text').waitFor({ timeout: WAIT });
    expect(await page.locator('.result-text').textContent()).toBe('Fruit: a');
  });

  it('URL elicitation: the link opens the bookshop’s sign-in; after signing in there, Done finishes', async () => {
    const page = await signedIn('alice');
    await open(page, flowOf('Look up past orders'));
    const link = page.getByRole('link', { name: /\/sign-in\?ticket=/ });
    expect(await page.locator('.host').textContent()).toBe(new URL(bookshop.endpoint.url).host);
    const [popup] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await popup.waitForLoadState();
    await popup.getByLabel('Account').fill('alice');
    await popup.getByLabel('Password').fill('wonderland');
    await popup.getByRole('button', { name: 'Sign in' }).click();
    await popup.waitForLoadState();
    await popup.close();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.locator('.result-text').waitFor({ timeout: WAIT });
    expect(await page.locator('.result-text').textContent()).toBe(
      'Signed in as alice. Past orders: "Dune" (2024-03-02), "Neuromancer" (2025-11-19).',
    );
  });

  it('roots: the person shares only the roots ticked', async () => {
    const page = await signedIn('alice');
    await open(page, flowOf('Save the wishlist'));
    await page.getByLabel(/shared/).uncheck();
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.locator('.result-text').waitFor({ timeout: WAIT });
    const text = (await page.locator('.result-text').textContent()) ?? '';
    expect(text).toContain('file:///home/alice/lists');
    expect(text).not.toContain('file:///srv/club/shared');
  });

  it('ran without a script error on any page', () => {
    expect(errors).toEqual([]);
  });
});
