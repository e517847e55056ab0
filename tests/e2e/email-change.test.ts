/**
 * Changing a user's e-mail in a real browser against the local runtime: the new address takes
 * effect only once the code mailed to it comes back (docs/security.md, "Who owns an address"). An
 * owner changes a member's e-mail; the list keeps the old one, marked 'E-mail pendente'; the member,
 * signed in, opens the mail's link, confirms with the code from the local outbox, and the new
 * address is the one everywhere. axe-core clean throughout.
 */
import { describe, expect, it } from 'vitest';
import { callApi, closeToasts, expectAccessible, newPage, readMail, strongPassword, uniqueEmail } from './browser.ts';
import { doceria, fileWorld, openAs, type Member, type World } from './world.ts';

let world: World;
let owner: Member;
let marina: Member;
fileWorld(async (started) => {
  world = started;
  ({ owner, marina } = await doceria(world));
});

describe('a user’s e-mail change', () => {
  it('waits for the code sent to the new address, which the user confirms signed in on /verify-email', async () => {
    const oldEmail = marina.email;
    const newEmail = uniqueEmail('marina.nova');

    // The owner changes Marina's e-mail.
    const admin = await newPage(world.browser);
    await openAs(admin.page, world, owner, '/users');
    const row = admin.page.getByTestId('user-row').filter({ hasText: 'Marina Costa' });
    await row.getByText(oldEmail).waitFor();
    await admin.page.getByRole('link', { name: 'Editar Marina Costa' }).click();
    const edit = admin.page.getByRole('dialog', { name: 'Editar usuário' });
    await edit.getByLabel('Email').fill(newEmail);
    await edit.getByRole('button', { name: 'Atualizar' }).click();
    await admin.page.getByText(`Enviamos um código de confirmação para ${newEmail}. O e-mail só muda depois da confirmação.`).waitFor();
    await admin.page.waitForURL(/\/users$/);

    // Nothing has moved yet: the list shows the old address, marked as waiting.
    await row.getByText('E-mail pendente').waitFor();
    expect(await row.getByText(oldEmail).count()).toBe(1);
    expect(await row.getByText(newEmail).count()).toBe(0);
    await expectAccessible(admin.page, '/users with a pending e-mail');
    const stored = (await callApi(world.base, 'GET', `/users/${marina.user.id}`, undefined, owner.token)).body;
    expect([stored.email, stored.pendingEmail]).toEqual([oldEmail, newEmail]);

    // Editing again shows which address waits, under the field and tied to it.
    await admin.page.getByRole('link', { name: 'Editar Marina Costa' }).click();
    const hint = edit.locator('p', { hasText: `Aguardando confirmação de ${newEmail}.` });
    await hint.waitFor();
    expect(await hint.textContent()).toBe(`Aguardando confirmação de ${newEmail}. Até lá, o e-mail continua sendo ${oldEmail}.`);
    expect(await edit.getByLabel('Email').getAttribute('aria-describedby')).toBe(await hint.getAttribute('id'));
    await expectAccessible(admin.page, '/users/{id}/edit with a pending e-mail');
    await edit.getByRole('button', { name: 'Cancelar' }).click();
    await admin.page.waitForURL(/\/users$/);

    // The view dialog has the pending address too.
    await admin.page.getByRole('link', { name: 'Visualizar Marina Costa' }).click();
    const view = admin.page.getByRole('dialog', { name: 'Visualização de usuário' });
    await view.getByText('E-mail pendente').waitFor();
    await view.getByText(newEmail).waitFor();
    await view.getByRole('button', { name: 'Fechar' }).first().click();
    await admin.page.waitForURL(/\/users$/);

    // The code went to the new address, with the link; the old one got a notice, without the code.
    const mail = await readMail(world.runtime.outboxDir, newEmail);
    expect(mail.code).toMatch(/^\d{6}$/);
    const link = mail.text.match(/\/verify-email\?userId=[^\s]+/)?.[0];
    expect(link).toBe(`/verify-email?userId=${encodeURIComponent(marina.user.id)}`);
    const notice = await readMail(world.runtime.outboxDir, oldEmail);
    expect(notice.text).toContain(newEmail);
    expect(notice.text).not.toContain(mail.code);

    // Marina, signed in on her phone, opens the link: the page is hers to use, not a bounce to /inbox.
    const phone = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(phone.page, world, marina, link!);
    await phone.page.getByRole('heading', { name: 'Verificar e-mail' }).waitFor();
    expect(new URL(phone.page.url()).pathname).toBe('/verify-email');
    await expectAccessible(phone.page, '/verify-email signed in (390 dark)');
    await phone.page.getByLabel('Código de verificação').fill(mail.code);
    await phone.page.getByRole('button', { name: 'Confirmar e-mail' }).click();
    await phone.page.getByText('Email confirmado com sucesso').waitFor();
    // / sends a signed-in user on to /inbox; the session's user has the new address by then.
    await phone.page.waitForURL(/\/inbox$/);
    await expect.poll(() => phone.page.evaluate(() => JSON.parse(localStorage.getItem('conversa-auth') ?? '{}').user?.email)).toBe(newEmail);

    // The new address everywhere: Marina's list, the owner's list once refreshed, the API, the sign-in.
    await phone.page.goto(`${world.base}/users`);
    const hers = phone.page.getByTestId('user-row').filter({ hasText: 'Marina Costa' });
    await hers.getByText(newEmail).waitFor();
    expect(await hers.getByText('E-mail pendente').count()).toBe(0);
    // A toast covers the list's 'Atualizar'.
    await closeToasts(admin.page);
    await admin.page.getByRole('button', { name: 'Atualizar' }).click();
    await row.getByText(newEmail).waitFor();
    expect(await row.getByText('E-mail pendente').count()).toBe(0);
    expect(await row.getByText(oldEmail).count()).toBe(0);
    await expectAccessible(admin.page, '/users after the change');
    const after = (await callApi(world.base, 'GET', `/users/${marina.user.id}`, undefined, owner.token)).body;
    expect([after.email, after.pendingEmail, after.emailVerified]).toEqual([newEmail, null, true]);
    expect((await callApi(world.base, 'POST', '/auth/login', { email: newEmail, password: strongPassword })).body.accessToken).toBeTruthy();

    expect(admin.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
    await admin.context.close();
    await phone.context.close();
  });
});
