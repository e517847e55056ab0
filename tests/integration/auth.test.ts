import { describe, expect, it } from 'vitest';
import { call, lastMail, register, signIn, strongPassword, uniqueEmail } from './api.ts';

describe('register', () => {
  it('creates a user without an account, signs them in and e-mails a 6-digit code', async () => {
    const email = uniqueEmail();
    const answer = await call('POST', '/auth/register', { body: { name: 'Ana Souza', email, password: strongPassword } });
    expect(answer.status).toBe(201);
    expect(answer.body.id).toBe(answer.body.user.id);
    expect(answer.body.user).toMatchObject({ name: 'Ana Souza', email, accountId: null, isAdmin: false, emailVerified: false });
    expect(answer.body.user.passwordHash).toBeUndefined();
    const me = await call('GET', '/auth/me', { token: answer.body.accessToken });
    expect(me.body.user.id).toBe(answer.body.id);
    const mail = await lastMail(email);
    expect(mail?.subject).toBe('Confirme seu e-mail no Conversa');
    expect(mail?.code).toMatch(/^\d{6}$/);
    expect(mail?.text).toContain(mail!.code!);
  });

  it('stores the e-mail lower-cased and trimmed', async () => {
    const email = uniqueEmail();
    const answer = await call('POST', '/auth/register', { body: { name: 'Bia', email: `  ${email.toUpperCase()} `, password: strongPassword } });
    expect(answer.status).toBe(201);
    expect(answer.body.user.email).toBe(email);
  });

  it('refuses a weak password with the catalogue text', async () => {
    const answer = await call('POST', '/auth/register', { body: { name: 'Caio', email: uniqueEmail(), password: 'abcdef' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Strong password is required' });
  });

  it('refuses an e-mail that is already registered', async () => {
    const first = await register();
    const again = await call('POST', '/auth/register', { body: { name: 'Outra', email: first.email, password: strongPassword } });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Email already exists');
  });

  it('answers "Email must be a valid email" for a malformed e-mail', async () => {
    const answer = await call('POST', '/auth/register', { body: { name: 'Davi', email: 'not-an-email', password: strongPassword } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Email must be a valid email');
  });

  it('answers "Invalid params" with field details for missing fields', async () => {
    const answer = await call('POST', '/auth/register', { body: {} });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Invalid params');
    expect(answer.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['email', 'name', 'password']);
  });
});

describe('verify e-mail', () => {
  it('confirms the e-mail with the code that was sent', async () => {
    const person = await register();
    const code = (await lastMail(person.email))!.code!;
    const answer = await call('POST', '/auth/verify-email', { body: { userId: person.id, verifyCode: code } });
    expect(answer.status).toBe(204);
    const me = await call('GET', '/auth/me', { token: person.accessToken });
    expect(me.body.user.emailVerified).toBe(true);
    const reused = await call('POST', '/auth/verify-email', { body: { userId: person.id, verifyCode: code } });
    expect(reused.status).toBe(400);
  });

  it('refuses a wrong code, and burns the code after five wrong tries', async () => {
    const person = await register();
    const code = (await lastMail(person.email))!.code!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const answer = await call('POST', '/auth/verify-email', { body: { userId: person.id, verifyCode: wrong } });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('Invalid or expired code');
    }
    const right = await call('POST', '/auth/verify-email', { body: { userId: person.id, verifyCode: code } });
    expect(right.status).toBe(400);
  });

  it('refuses a code that is not six digits', async () => {
    const answer = await call('POST', '/auth/verify-email', { body: { userId: 'x', verifyCode: '12ab' } });
    expect(answer.status).toBe(400);
    expect(answer.body.details[0]).toEqual({ path: 'verifyCode', message: 'O código deve conter 6 dígitos' });
  });

  it('sends a fresh code on request', async () => {
    const person = await register();
    const first = (await lastMail(person.email))!.code;
    await new Promise((r) => setTimeout(r, 5));
    expect((await call('POST', '/auth/resend-verification', { body: { userId: person.id } })).status).toBe(204);
    const second = await lastMail(person.email);
    expect(second?.code).toMatch(/^\d{6}$/);
    const ok = await call('POST', '/auth/verify-email', { body: { userId: person.id, verifyCode: second!.code } });
    expect(ok.status).toBe(204);
    expect(first).toBeDefined();
  });
});

describe('login and logout', () => {
  it('signs in with the right password and refuses a wrong one', async () => {
    const person = await register();
    const ok = await call('POST', '/auth/login', { body: { email: person.email, password: person.password } });
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(person.id);
    const bad = await call('POST', '/auth/login', { body: { email: person.email, password: 'Errada#123' } });
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ error: 'Unauthorized', message: 'Invalid credentials' });
  });

  it('answers the same for an unknown e-mail as for a wrong password', async () => {
    const answer = await call('POST', '/auth/login', { body: { email: uniqueEmail('ghost'), password: 'Qualquer#1' } });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toBe('Invalid credentials');
  });

  it('requires both fields with "Campo obrigatório"', async () => {
    const answer = await call('POST', '/auth/login', { body: { email: '', password: '' } });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual(
      expect.arrayContaining([
        { path: 'email', message: 'Campo obrigatório' },
        { path: 'password', message: 'Campo obrigatório' },
      ]),
    );
  });

  it('revokes the token on logout', async () => {
    const person = await register();
    const token = await signIn(person.email, person.password);
    expect((await call('GET', '/auth/me', { token })).status).toBe(200);
    expect((await call('POST', '/auth/logout', { token })).status).toBe(204);
    const after = await call('GET', '/auth/me', { token });
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('Unauthorized');
    // Other sessions of the same user live on.
    expect((await call('GET', '/auth/me', { token: person.accessToken })).status).toBe(200);
  });

  it('answers 401 for a missing, malformed or forged token', async () => {
    expect((await call('GET', '/auth/me')).status).toBe(401);
    expect((await call('GET', '/auth/me', { token: 'garbage' })).status).toBe(401);
    const person = await register();
    const [h, p] = person.accessToken.split('.');
    expect((await call('GET', '/auth/me', { token: `${h}.${p}.forgedsignature` })).status).toBe(401);
    expect((await call('GET', '/auth/me', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
  });

  it('stops a brute force: after 10 failures the right password is refused too', async () => {
    const person = await register();
    for (let i = 0; i < 10; i++) {
      const answer = await call('POST', '/auth/login', { body: { email: person.email, password: `Errada#${i}` } });
      expect(answer.status).toBe(401);
    }
    const locked = await call('POST', '/auth/login', { body: { email: person.email, password: person.password } });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('Too many attempts');
  });
});

describe('forgot and reset password', () => {
  it('says nothing about unknown e-mails and sends nothing', async () => {
    const email = uniqueEmail('nobody');
    const answer = await call('POST', '/auth/forgot-password', { body: { email } });
    expect(answer.status).toBe(204);
    expect(await lastMail(email)).toBeUndefined();
  });

  it('resets the password with the e-mailed code and signs in', async () => {
    const person = await register();
    expect((await call('POST', '/auth/forgot-password', { body: { email: person.email } })).status).toBe(204);
    const mail = await lastMail(person.email);
    expect(mail?.subject).toBe('Redefinição de senha do Conversa');
    expect(mail?.text).toContain(`/reset-password?verifyCode=${mail!.code}&email=`);
    const answer = await call('POST', '/auth/reset-password', {
      body: { email: person.email, verifyCode: mail!.code, password: 'Nova#Senha456' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.accessToken).toBeTruthy();
    expect((await call('POST', '/auth/login', { body: { email: person.email, password: person.password } })).status).toBe(401);
    expect((await call('POST', '/auth/login', { body: { email: person.email, password: 'Nova#Senha456' } })).status).toBe(200);
  });

  it('refuses a wrong code and a weak new password', async () => {
    const person = await register();
    await call('POST', '/auth/forgot-password', { body: { email: person.email } });
    const code = (await lastMail(person.email))!.code!;
    const wrong = await call('POST', '/auth/reset-password', {
      body: { email: person.email, verifyCode: code === '123456' ? '654321' : '123456', password: 'Nova#Senha456' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Invalid or expired code');
    const weak = await call('POST', '/auth/reset-password', { body: { email: person.email, verifyCode: code, password: 'fraquinha' } });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toBe('Strong password is required');
    const short = await call('POST', '/auth/reset-password', { body: { email: person.email, verifyCode: code, password: 'abc' } });
    expect(short.body.details[0].message).toBe('A senha deve ter pelo menos 6 caracteres');
  });
});
