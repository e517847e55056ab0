import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, closeToasts, expectAccessible, newPage, readMail, startHarness, strongPassword, uniqueEmail, type Harness } from './browser.ts';

let h: Harness;
let base: string;

beforeAll(async () => {
  h = await startHarness();
  base = h.runtime.url;
});
afterAll(async () => {
  await h?.stop();
});

/** A person with one e-mail in two accounts, arranged through the API. */
async function personWithTwoAccounts(name: string) {
  const email = uniqueEmail('duas.contas');
  const registered = await callApi(base, 'POST', '/auth/register', { name, email, password: strongPassword });
  expect(registered.status).toBe(201);
  const first = await callApi(base, 'POST', '/accounts', { name: 'Alfa Modas' }, registered.body.accessToken);
  expect(first.status).toBe(201);
  const second = await callApi(base, 'POST', '/accounts', { name: 'Beta Calçados' }, first.body.accessToken);
  expect(second.status).toBe(201);
  return { email };
}

describe('a newcomer', () => {
  it('registers, verifies the e-mail with the code from the outbox, logs in, creates an account and lands in the app', async () => {
    const { page, context, errors } = await newPage(h.browser);
    const email = uniqueEmail('novata');
    // The page's clock flows with real time; it is moved past the forms' redirect delays below.
    await page.clock.install();

    await page.goto(`${base}/register`);
    await page.waitForFunction(() => document.title.startsWith('Criar uma nova conta'));
    await expectAccessible(page, '/register');

    // Validation texts of docs/product.md#validation before anything is sent.
    await page.getByRole('button', { name: 'Criar conta grátis' }).click();
    await page.getByText('Você precisa aceitar os termos para continuar').waitFor();
    expect(await page.getByText('Campo obrigatório').count()).toBeGreaterThanOrEqual(2);

    await page.getByLabel('Nome').fill('Carla Souza');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Senha', { exact: true }).fill(strongPassword);
    await page.getByLabel(/Li e aceito/).check();
    await page.getByRole('button', { name: 'Criar conta grátis' }).click();
    await page.getByText('Usuário criado com sucesso').waitFor();
    // The form moves on 1 s after its toast (registerRedirectMs, set with the toast).
    await page.clock.runFor(1000);
    await page.waitForURL(/\/verify-email\?userId=/);
    await page.getByRole('heading', { name: 'Verificar e-mail' }).waitFor();
    await expectAccessible(page, '/verify-email');

    const mail = await readMail(h.runtime.outboxDir, email);
    expect(mail.code).toMatch(/^\d{6}$/);
    await page.getByLabel('Código de verificação').fill('12');
    await page.getByRole('button', { name: 'Confirmar e-mail' }).click();
    await page.getByText('O código deve conter 6 dígitos').waitFor();
    await page.getByLabel('Código de verificação').fill(mail.code);
    await page.getByRole('button', { name: 'Confirmar e-mail' }).click();
    await page.getByText('Email confirmado com sucesso').waitFor();
    // verifyRedirectMs.
    await page.clock.runFor(1000);
    await page.waitForURL(`${base}/`);

    // 'Email confirmado com sucesso' covers the header's 'Entrar'.
    await closeToasts(page);
    await page.getByRole('link', { name: 'Entrar', exact: true }).first().click();
    await page.waitForURL(/\/login$/);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Senha', { exact: true }).fill(strongPassword);
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();

    // No account yet: /accounts.
    await page.waitForURL(/\/accounts$/);
    await page.getByRole('heading', { name: 'Crie a conta da sua empresa' }).waitFor();
    await expectAccessible(page, '/accounts');
    await page.getByRole('button', { name: 'Criar conta' }).click();
    await page.getByText('Campo obrigatório').waitFor();
    await page.getByLabel('Nome da conta').fill('Doceria da Carla');
    await page.getByRole('button', { name: 'Criar conta' }).click();
    await page.getByText('Conta Doceria da Carla criada com sucesso, logamos você nela').waitFor();
    await page.waitForURL(/\/my-account$/);
    await page.getByRole('heading', { name: 'Minha Conta', level: 1 }).waitFor();
    await page.getByText('Doceria da Carla').first().waitFor();

    // The app shell: the spec's menu, and the session survives a reload (checked with /auth/me).
    const nav = page.getByRole('navigation', { name: 'Menu do aplicativo' });
    for (const item of ['Chat', 'Contatos', 'Conexões', 'Usuários', 'Minha Conta']) await nav.getByRole('link', { name: item }).waitFor();
    await nav.getByRole('link', { name: 'Chat' }).click();
    await page.waitForURL(/\/inbox$/);
    await page.reload();
    await page.getByRole('heading', { name: 'Chat', level: 1 }).waitFor();
    await expectAccessible(page, '/inbox');

    // Sair ends the session and guarded routes go back to /login.
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.waitForURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('conversa-auth'))).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the login', () => {
  it('asks which account to enter when the e-mail has several, and retries with the chosen one', async () => {
    const { email } = await personWithTwoAccounts('Rita Lima');
    const { page, context, errors } = await newPage(h.browser);
    await page.goto(`${base}/login`);
    await expectAccessible(page, '/login');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Senha', { exact: true }).fill(strongPassword);
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();

    const dialog = page.getByRole('dialog', { name: 'Em qual conta deseja entrar' });
    await dialog.waitFor();
    await expectAccessible(page, 'account choice');
    await dialog.getByText('Alfa Modas').waitFor();
    await dialog.getByText('Beta Calçados').waitFor();
    expect(await dialog.getByText(email).count()).toBe(2);

    // Esc closes it; entering again brings it back.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();
    await dialog.waitFor();

    const beta = dialog.getByRole('listitem').filter({ hasText: 'Beta Calçados' });
    await beta.getByRole('button', { name: 'Logar' }).click();
    await page.waitForURL(/\/inbox$/);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('conversa-auth') ?? 'null'));
    expect(stored.user.account.name).toBe('Beta Calçados');
    await page.getByText('Beta Calçados').first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows wrong credentials in the error modal, which Esc closes', async () => {
    const { page, context } = await newPage(h.browser);
    await page.goto(`${base}/login`);
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();
    expect(await page.getByText('Campo obrigatório').count()).toBe(2);
    await page.getByLabel('E-mail').fill(uniqueEmail('ninguem'));
    await page.getByLabel('Senha', { exact: true }).fill('errada123');
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();
    const modal = page.getByRole('alertdialog', { name: 'Acesso não autorizado' });
    await modal.waitFor();
    await modal.getByText('Credenciais inválidas').waitFor();
    await modal.getByRole('button', { name: 'Entendi' }).waitFor();
    await expectAccessible(page, 'error modal');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    // Focus goes back to where it was.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Entrar');
    await context.close();
  });
});

/** waitForURL that says where the page ended up when it fails. */
async function expectUrl(page: import('playwright-core').Page, pattern: RegExp): Promise<void> {
  await page.waitForURL(pattern, { timeout: 10_000 }).catch(() => {
    throw new Error(`expected the URL to match ${pattern}, but the page is at ${page.url()}`);
  });
}

describe('the route guards', () => {
  it('send visitors of guarded routes to /login, and show a not-found page for unknown routes', async () => {
    const { page, context, errors } = await newPage(h.browser);
    for (const path of ['/inbox', '/contacts', '/services/create', '/users', '/my-account', '/accounts']) {
      await page.goto(`${base}${path}`);
      await expectUrl(page, /\/login$/);
    }
    await page.goto(`${base}/nao-existe/mesmo`);
    await page.getByRole('heading', { name: 'Página não encontrada' }).waitFor();
    await expectAccessible(page, 'not found');
    // The page is prerendered: its heading shows before the app has hydrated it and set the title.
    await page.waitForFunction(() => document.title.includes('Página não encontrada'));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('send signed-in users from guest-only routes to /inbox, and users without an account to /accounts', async () => {
    const email = uniqueEmail('sem.conta');
    const registered = await callApi(base, 'POST', '/auth/register', { name: 'Davi Rocha', email, password: strongPassword });
    const withAccount = await personWithTwoAccounts('Nina Alves');
    const chosen = await callApi(base, 'POST', '/auth/login', { email: withAccount.email, password: strongPassword });
    const accountId = chosen.body.users[0].accountId;
    const session = await callApi(base, 'POST', '/auth/login', { email: withAccount.email, password: strongPassword, accountId });

    const { page, context } = await newPage(h.browser);
    await page.goto(`${base}/about`);
    await page.evaluate((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), session.body);
    for (const path of ['/', '/login', '/register', '/forgot-password', '/reset-password']) {
      await page.goto(`${base}${path}`);
      await expectUrl(page, /\/inbox$/);
    }
    // Public static pages stay reachable when signed in, and so does /verify-email, where the link
    // of an e-mail change lands (tests/e2e/email-change.test.ts).
    await page.goto(`${base}/terms`);
    await page.getByRole('heading', { name: 'Termos de uso', level: 1 }).waitFor();
    await page.goto(`${base}/verify-email`);
    await page.getByRole('heading', { name: 'Verificar e-mail', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/verify-email');

    await page.evaluate((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), registered.body);
    // The app shows the page while /auth/me checks the stored session: its answer (which stores the
    // user again) must be in before the token is spoiled below, or it would store the good one back.
    await Promise.all([page.waitForResponse('**/api/auth/me'), page.goto(`${base}/inbox`)]);
    await expectUrl(page, /\/accounts$/);

    // A token the server no longer accepts (401 from /auth/me) signs out and clears the stored state.
    await page.evaluate(() => {
      const s = JSON.parse(localStorage.getItem('conversa-auth')!);
      localStorage.setItem('conversa-auth', JSON.stringify({ ...s, accessToken: 'token-invalido' }));
    });
    await page.goto(`${base}/inbox`);
    await expectUrl(page, /\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('conversa-auth'))).toBeNull();
    await context.close();
  });
});

describe('password recovery', () => {
  it('sends the code, then resets the password from the e-mailed link and signs in with it', async () => {
    const email = uniqueEmail('esqueci');
    const registered = await callApi(base, 'POST', '/auth/register', { name: 'Bia Nunes', email, password: strongPassword });
    expect(registered.status).toBe(201);
    const { page, context, errors } = await newPage(h.browser);
    // The page's clock flows with real time; it is moved past the forms' redirect delays below.
    await page.clock.install();
    await page.goto(`${base}/forgot-password`);
    await expectAccessible(page, '/forgot-password');
    await page.getByLabel('E-mail').fill('isso-nao-e-email');
    await page.getByRole('button', { name: 'Enviar link de recuperação' }).click();
    await page.getByText('Endereço de email inválido').waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Enviar link de recuperação' }).click();
    await page.getByText('Email enviado com sucesso, você será redirecionado para o login').waitFor();
    // The form moves on 2 s after its toast (forgotRedirectMs, set with the toast).
    await page.clock.runFor(2000);
    await page.waitForURL(`${base}/`);

    const mail = await readMail(h.runtime.outboxDir, email);
    const code = mail.code;
    await page.goto(`${base}/reset-password?verifyCode=${code}&email=${encodeURIComponent(email)}`);
    await expectAccessible(page, '/reset-password');
    await page.getByLabel('Nova senha', { exact: true }).fill('123');
    await page.getByRole('button', { name: 'Redefinir senha' }).click();
    await page.getByText('A senha deve ter pelo menos 6 caracteres').waitFor();
    await page.getByLabel('Nova senha', { exact: true }).fill('Nova@Senha2025');
    await page.getByLabel('Confirme a nova senha').fill('Outra@Senha2025');
    await page.getByRole('button', { name: 'Redefinir senha' }).click();
    await page.getByText('As senhas devem ser iguais').waitFor();
    await page.getByLabel('Confirme a nova senha').fill('Nova@Senha2025');
    await page.getByRole('button', { name: 'Redefinir senha' }).click();
    await page.getByText('Senha alterada com sucesso, você será redirecionado para o login').waitFor();
    // resetRedirectMs.
    await page.clock.runFor(2000);
    await page.waitForURL(`${base}/`);
    const login = await callApi(base, 'POST', '/auth/login', { email, password: 'Nova@Senha2025' });
    expect(login.status).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the app shell', () => {
  it('collapses the sidebar (remembered), and on a phone opens a menu that Esc closes', async () => {
    const email = uniqueEmail('shell');
    const registered = await callApi(base, 'POST', '/auth/register', { name: 'Lia Castro', email, password: strongPassword });
    const account = await callApi(base, 'POST', '/accounts', { name: 'Ateliê da Lia' }, registered.body.accessToken);
    const session = { accessToken: account.body.accessToken, user: account.body.user };

    const { page, context, errors } = await newPage(h.browser);
    await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), session);
    await page.goto(`${base}/contacts`);
    await page.getByRole('heading', { name: 'Contatos', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Recolher menu lateral' }).click();
    await page.getByRole('button', { name: 'Expandir menu lateral' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Menu do aplicativo' });
    await nav.getByRole('link', { name: 'Conexões' }).click();
    await page.waitForURL(/\/services$/);
    await page.reload();
    await page.getByRole('button', { name: 'Expandir menu lateral' }).waitFor();
    await expectAccessible(page, 'collapsed sidebar');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.getByRole('link', { name: 'Usuários' }).waitFor();
    await expectAccessible(page, 'mobile menu');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await drawer.getByRole('link', { name: 'Usuários' }).click();
    await page.waitForURL(/\/users$/);
    await drawer.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
