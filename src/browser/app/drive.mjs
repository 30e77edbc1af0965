// Drives Shlink's admin UI (served from UI) against Shortgate (SERVER, key API_KEY) in headless Chromium:
// list, create with a custom slug and tags, edit, redirect rules, visits with a chart, a visit shown live (Mercure),
// delete the visits, the domain's redirects, delete; then across two domains: create on a second domain from the
// domain picker, filter the list by domain, that domain's visits. One screenshot per screen in SHOTS.
// Exits non-zero on the first failed step; every wait is bounded.
import { request as httpRequest } from 'node:http';
import { chromium } from 'playwright-core';

const { SERVER, API_KEY, UI, CHROMIUM, SHOTS } = process.env;
const slug = `browser-${Date.now().toString(36)}`;
const STEP_TIMEOUT = 15_000;
// A second short domain, added through the admin API by step 14. Chromium resolves it to the app (the UI checks each
// domain's health at http://<domain>/rest/v3/health); Node's requests name it in Host, as an ingress would pass it.
const DOMAIN = 'second.browser.test';
const domainSlug = `${slug}-second`;
const server = new URL(SERVER);

const browser = await chromium.launch({
  executablePath: CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', `--host-resolver-rules=MAP ${DOMAIN} ${server.host}`],
  timeout: 60_000,
});
const problems = [];
let failed = false;
try {
  // Reduced motion: recharts then draws its charts at once, so a screenshot never catches one half-drawn.
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  page.setDefaultTimeout(STEP_TIMEOUT);
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // A failed load is judged by the response handler below (the console only repeats it, without the URL).
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource')
    && problems.push(`console: ${m.text()}`));
  page.on('response', (r) => {
    // Shlink without Mercure answers mercure-info with 501 too; the UI then simply polls no real-time updates.
    const expected = r.url() === `${SERVER}/rest/v3/mercure-info` && r.status() === 501;
    if (r.url().startsWith(SERVER) && r.status() >= 400 && !expected) {
      problems.push(`${r.request().method()} ${r.url()} -> ${r.status()}`);
    }
  });
  // The UI holds a Mercure event stream open while a page shows live data and closes it when it leaves: the
  // browser reports that close as an aborted request. Any other failure, or a stream that fails otherwise, counts.
  const streamClosed = (r) => r.url().startsWith(`${SERVER}/.well-known/mercure?`)
    && r.failure()?.errorText === 'net::ERR_ABORTED';
  page.on('requestfailed', (r) => streamClosed(r)
    || problems.push(`request failed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`));

  const step = async (name, fn) => {
    process.stdout.write(`[browser] step: ${name}\n`);
    try {
      await fn();
    } catch (e) {
      await page.screenshot({ path: `${SHOTS}/failed-${name}.png`, fullPage: true }).catch(() => {});
      throw new Error(`step "${name}" failed: ${e.message}`);
    }
    if (problems.length) throw new Error(`step "${name}": ${problems.join('; ')}`);
    await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  };
  const api = (path, init = {}) => fetch(`${SERVER}/rest/v3${path}`,
    { ...init, headers: { 'X-Api-Key': API_KEY, 'Content-Type': 'application/json', ...init.headers } });
  // A GET of SERVER's path with another Host header (fetch may not set Host): the status and Location.
  const getWithHost = (host, path, headers = {}) => new Promise((resolve, reject) => {
    const req = httpRequest({ host: server.hostname, port: server.port, path, headers: { ...headers, Host: host },
      timeout: STEP_TIMEOUT }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, location: res.headers.location }));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${host}${path} timed out`)));
    req.on('error', reject);
    req.end();
  });
  const until = async (what, check) => { // polls the API (bounded) until check() answers true
    const deadline = Date.now() + STEP_TIMEOUT;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  // A link made over the API beforehand, so the list has more than the one the UI creates.
  const seeded = await api('/short-urls', { method: 'POST',
    body: JSON.stringify({ longUrl: 'https://example.com/seeded', tags: ['seed'], title: 'Seeded over the API' }) });
  if (seeded.status !== 200) throw new Error(`seeding answered ${seeded.status}: ${await seeded.text()}`);

  await step('01-list', async () => {
    await page.goto(`${UI}/?server=${encodeURIComponent(SERVER)}&apiKey=${encodeURIComponent(API_KEY)}`);
    await page.getByRole('link', { name: 'List short URLs' }).click();
    await page.getByText('Seeded over the API').waitFor();
  });

  await step('02-create', async () => {
    await page.getByRole('link', { name: 'Create short URL' }).click();
    await page.getByPlaceholder('URL to be shortened').fill('https://example.com/made-in-the-browser');
    await page.getByPlaceholder('Custom slug').fill(slug);
    const tags = page.getByPlaceholder('Add tags to the URL');
    for (const tag of ['browser', 'demo']) {
      await tags.fill(tag);
      await tags.press('Enter');
    }
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`${SERVER}/${slug}`).first().waitFor();
  });

  await step('03-edit', async () => {
    await page.getByRole('link', { name: 'List short URLs' }).click();
    const row = page.getByRole('row').filter({ hasText: `/${slug}` });
    await row.waitFor();
    await row.getByRole('button').last().click();
    await page.getByText('Edit short URL').click();
    const longUrl = page.getByPlaceholder('URL to be shortened');
    await longUrl.waitFor();
    await longUrl.fill('https://example.com/edited-in-the-browser');
    await page.getByPlaceholder('Title').fill('Edited in the browser');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Short URL properly edited.').waitFor();
    const check = await api(`/short-urls/${slug}`);
    const body = await check.json();
    if (body.longUrl !== 'https://example.com/edited-in-the-browser' || body.title !== 'Edited in the browser') {
      throw new Error(`the edit did not reach the server: ${JSON.stringify(body)}`);
    }
    if (JSON.stringify([...body.tags].sort()) !== '["browser","demo"]') throw new Error(`tags: ${body.tags}`);
  });

  await step('04-redirect-rules', async () => {
    // Three rules, one condition each: device android, language, query param. Saved, then read back after a reload.
    const rules = [
      { url: 'https://example.com/android', condition: async (c) => c.getByLabel('Device type:').selectOption('android') },
      { url: 'https://example.com/spanish', condition: async (c) => {
        await c.getByLabel('Type:', { exact: true }).selectOption('language');
        await c.getByLabel('Language:', { exact: true }).fill('es');
      } },
      { url: 'https://example.com/campaign', condition: async (c) => {
        await c.getByLabel('Type:', { exact: true }).selectOption('query-param');
        await c.getByLabel('Param name:').fill('utm_source');
        await c.getByLabel('Param value:').fill('newsletter');
      } },
    ];
    await page.getByRole('link', { name: 'List short URLs' }).click();
    const row = page.getByRole('row').filter({ hasText: `/${slug}` });
    await row.getByRole('button').last().click();
    await page.getByText('Manage redirect rules').click();
    await page.getByText('This short URL has no dynamic redirect rules').waitFor();
    for (const rule of rules) {
      await page.getByRole('button', { name: 'Add rule' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Long URL:').fill(rule.url);
      await dialog.getByRole('button', { name: 'Add condition' }).click();
      await rule.condition(dialog);
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    await page.getByTestId('save-button').click();
    await page.getByText('Redirect rules properly saved.').waitFor();
    await page.reload();
    for (const rule of rules) await page.getByText(rule.url).first().waitFor();
    const saved = await (await api(`/short-urls/${slug}/redirect-rules`)).json();
    const types = saved.redirectRules.map((r) => r.conditions.map((c) => c.type).join('+')).join(',');
    if (types !== 'device,language,query-param') throw new Error(`rules on the server: ${JSON.stringify(saved)}`);
    const android = await fetch(`${SERVER}/${slug}`, { redirect: 'manual',
      headers: { 'User-Agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36' } });
    if (android.headers.get('location') !== 'https://example.com/android') {
      throw new Error(`an Android visitor went to ${android.status} ${android.headers.get('location')}`);
    }
  });

  await step('05-visits', async () => {
    // The Android visit of the rules step was the first; three more.
    for (const agent of ['Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0', 'Mozilla/5.0 (Macintosh) Safari/605.1',
      'Mozilla/5.0 (Windows NT 10.0) Chrome/126.0']) {
      const r = await fetch(`${SERVER}/${slug}`, { redirect: 'manual', headers: { 'User-Agent': agent } });
      if (r.status < 300 || r.status >= 400) throw new Error(`redirect answered ${r.status}`);
    }
    // Visit rows and counts are each written in batches about once a second: wait (bounded) until the API shows
    // all four in both, the visit list and the short URL's total.
    const deadline = Date.now() + STEP_TIMEOUT;
    for (let listed = 0, total = 0; listed < 4 || total < 4;) {
      if (Date.now() > deadline) throw new Error(`the API lists ${listed} and counts ${total} of 4 visits`);
      listed = (await (await api(`/short-urls/${slug}/visits`)).json()).visits.pagination.totalItems;
      total = (await (await api(`/short-urls/${slug}`)).json()).visitsSummary.total;
      if (listed < 4 || total < 4) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await page.getByRole('link', { name: 'List short URLs' }).click();
    const row = page.getByRole('row').filter({ hasText: `/${slug}` });
    await row.getByRole('button').last().click();
    await page.getByText('Visit stats').click();
    await page.getByText('Visits: 4').waitFor();
    await page.locator('.recharts-surface').first().waitFor();
  });

  await step('06-list-with-visits', async () => {
    await page.getByRole('link', { name: 'List short URLs' }).click();
    const row = page.getByRole('row').filter({ hasText: `/${slug}` });
    await row.getByText('Edited in the browser').waitFor();
    await row.getByRole('link', { name: '4', exact: true }).waitFor();
  });

  await step('07-live-update', async () => {
    // The visits page subscribes to the short URL's Mercure topic (mercure-info gives the hub and a token); a visit
    // made from outside must show up on the open page, without a reload.
    const stream = page.waitForRequest((r) => r.url().startsWith(`${SERVER}/.well-known/mercure?`));
    const row = page.getByRole('row').filter({ hasText: `/${slug}` });
    await row.getByRole('button').last().click();
    await page.getByText('Visit stats').click();
    await page.getByText('Visits: 4').waitFor();
    await stream;
    const reloads = [];
    const onRequest = (r) => r.url().startsWith(`${SERVER}/rest/v3/short-urls/${slug}/visits`) && reloads.push(r.url());
    page.on('request', onRequest);
    const r = await fetch(`${SERVER}/${slug}`, { redirect: 'manual',
      headers: { 'User-Agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/126.0 Mobile' } });
    if (r.status < 300 || r.status >= 400) throw new Error(`redirect answered ${r.status}`);
    await page.getByText('Visits: 5').waitFor();
    page.off('request', onRequest);
    if (reloads.length) throw new Error(`the page fetched the visits again instead of taking the event: ${reloads}`);
  });

  await step('08-delete-visits', async () => {
    await page.getByText('Visits: 5').waitFor();
    await page.getByText('Options', { exact: true }).click();
    await page.getByRole('button', { name: 'Delete visits' }).click();
    await page.getByRole('button', { name: 'Click again to confirm' }).click();
    const deadline = Date.now() + STEP_TIMEOUT;
    for (let total = -1, listed = -1; total !== 0 || listed !== 0;) {
      if (Date.now() > deadline) throw new Error(`after deleting, the API counts ${total} and lists ${listed} visits`);
      total = (await (await api(`/short-urls/${slug}`)).json()).visitsSummary.total;
      listed = (await (await api(`/short-urls/${slug}/visits`)).json()).visits.pagination.totalItems;
      if (total !== 0 || listed !== 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await page.getByRole('link', { name: 'List short URLs' }).click();
    await page.getByRole('row').filter({ hasText: `/${slug}` }).getByRole('link', { name: '0', exact: true }).waitFor();
  });

  await step('09-overview', async () => {
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByText(/orphan visits/i).first().waitFor();
    await page.getByText('Edited in the browser').first().waitFor();
  });

  await step('10-tags', async () => {
    // The component loads tag stats once when it mounts and only appends new tag names afterwards (as against
    // Shlink itself without Mercure), so the tags page is read after a reload, which fetches them afresh.
    await page.getByRole('link', { name: 'Manage tags' }).click();
    await page.reload();
    await page.getByText('demo', { exact: true }).first().waitFor();
  });

  await step('11-domains', async () => {
    await page.getByRole('link', { name: 'Manage domains' }).click();
    await page.getByText(new URL(SERVER).host).first().waitFor();
  });

  await step('12-domain-redirects', async () => {
    const target = 'https://example.com/no-such-short-url';
    const row = page.getByRole('row').filter({ hasText: new URL(SERVER).host });
    await row.getByRole('button').last().click();
    await page.getByText('Edit redirects').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Invalid short URL').fill(target);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(target).first().waitFor();
    const domains = await (await api('/domains')).json();
    if (domains.domains.data[0].redirects.invalidShortUrlRedirect !== target) {
      throw new Error(`the domain's redirects on the server: ${JSON.stringify(domains)}`);
    }
    const unknown = await fetch(`${SERVER}/no-such-code-${Date.now().toString(36)}`, { redirect: 'manual' });
    if (unknown.status !== 302 || unknown.headers.get('location') !== target) {
      throw new Error(`an unknown code answered ${unknown.status} ${unknown.headers.get('location')}`);
    }
  });

  await step('13-delete', async () => {
    await page.getByRole('link', { name: 'List short URLs' }).click();
    const row = page.getByRole('row').filter({ hasText: `/${slug}` });
    await row.getByRole('button').last().click();
    await page.getByText('Delete short URL').click();
    await page.getByPlaceholder('delete').fill('delete');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await row.waitFor({ state: 'detached' });
    const gone = await api(`/short-urls/${slug}`);
    if (gone.status !== 404) throw new Error(`after delete the server answers ${gone.status}`);
  });

  await step('14-create-on-second-domain', async () => {
    const added = await fetch(`${SERVER}/api/v1/domains`, { method: 'POST',
      headers: { 'X-Api-Key': API_KEY, 'Content-Type': 'application/json' }, body: JSON.stringify({ domain: DOMAIN }) });
    if (added.status !== 201) throw new Error(`adding ${DOMAIN} answered ${added.status}: ${await added.text()}`);
    // The UI lists the domains once when it loads: load it again to see the new one in the picker.
    await page.getByRole('link', { name: 'Create short URL' }).click();
    await page.reload();
    await page.getByPlaceholder('URL to be shortened').fill('https://example.com/made-on-the-second-domain');
    await page.getByPlaceholder('Custom slug').fill(domainSlug);
    await page.getByRole('button', { name: 'Domain', exact: true }).click();
    await page.getByRole('menuitem', { name: DOMAIN }).click();
    await page.getByRole('button', { name: `Domain: ${DOMAIN}` }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`http://${DOMAIN}/${domainSlug}`).first().waitFor();
    const made = await (await api(`/short-urls/${domainSlug}?domain=${DOMAIN}`)).json();
    if (made.domain !== DOMAIN || made.longUrl !== 'https://example.com/made-on-the-second-domain') {
      throw new Error(`the link on the server: ${JSON.stringify(made)}`);
    }
    const onDefault = await api(`/short-urls/${domainSlug}`);
    if (onDefault.status !== 404) throw new Error(`the default domain answers ${onDefault.status} for the code`);
  });

  await step('15-filter-by-domain', async () => {
    await page.getByRole('link', { name: 'List short URLs' }).click();
    await page.getByText('Seeded over the API').waitFor();
    await page.getByRole('row').filter({ hasText: `/${domainSlug}` }).waitFor();
    await page.getByRole('button', { name: 'All domains' }).click();
    await page.getByRole('menuitem', { name: DOMAIN }).click();
    await page.getByRole('button', { name: `Domain: ${DOMAIN}` }).waitFor();
    await page.getByText('Seeded over the API').waitFor({ state: 'detached' });
    const rows = page.getByRole('row').filter({ hasText: `http://${DOMAIN}/` });
    await rows.filter({ hasText: `/${domainSlug}` }).waitFor();
    const shown = page.getByRole('row').filter({ hasText: /https?:\/\// });
    if (await shown.count() !== await rows.count()) {
      throw new Error(`the filtered list shows links of other domains: ${await shown.allInnerTexts()}`);
    }
  });

  await step('16-domain-visits', async () => {
    const redirect = await getWithHost(DOMAIN, `/${domainSlug}`,
      { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' });
    if (redirect.status !== 302 || redirect.location !== 'https://example.com/made-on-the-second-domain') {
      throw new Error(`a visit through Host ${DOMAIN} answered ${redirect.status} ${redirect.location}`);
    }
    // The default domain has no such code: its invalid-short-URL redirect (step 12), not the second domain's link.
    const other = await getWithHost(server.host, `/${domainSlug}`);
    if (other.location !== 'https://example.com/no-such-short-url') {
      throw new Error(`the default domain answered ${other.status} ${other.location} for the code`);
    }
    await until(`the API lists the visit of ${DOMAIN}`, async () =>
      (await (await api(`/domains/${DOMAIN}/visits`)).json()).visits.pagination.totalItems === 1);
    await page.getByRole('link', { name: 'Manage domains' }).click();
    const row = page.getByRole('row').filter({ hasText: DOMAIN });
    await row.getByRole('button').last().click();
    await page.getByText('Visit stats').click();
    await page.getByText(`"${DOMAIN}" visits`).first().waitFor();
    await page.getByText('Visits: 1').waitFor();
    await page.locator('.recharts-surface').first().waitFor();
    // The visit itself, in the list: the browser its user agent names, and the URL it asked for on that host.
    await page.getByText('List', { exact: true }).click();
    const visit = page.getByRole('row').filter({ hasText: `http://${DOMAIN}/${domainSlug}` });
    await visit.getByRole('cell', { name: 'Firefox', exact: true }).waitFor();
  });
} catch (e) {
  failed = true;
  console.error(`[browser] ${e.message}`);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
