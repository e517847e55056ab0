/**
 * The races in the auth budgets and sessions (ADR-0191), through the real gateway. Each test sends
 * from a loopback address of its own, since the budgets count per caller address. Before the fix:
 * 60 concurrent logins let the right password in at try 51 and answered some tries 500, 40
 * parallel code guesses met no 429, one reset code worked 8 times, an unarchived user's old
 * token worked again, and a password set by an admin left the user's sessions alive.
 */
import { describe, expect, it } from 'vitest';
import { call, callFrom, lastMail, proTeam, register, signIn, strongPassword, uniqueLoopback } from './api.ts';

function statuses(answers: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

describe('failure budgets taken before the check', () => {
  it('60 concurrent logins for one e-mail: no more than 10 wrong ones are checked, none answers 500, and what is left of the budget is exactly what was not spent', async () => {
    const person = await register();
    const from = callFrom(uniqueLoopback());
    const tries = Array.from({ length: 60 }, (_, i) =>
      from('POST', '/auth/login', { body: { email: person.email, password: i === 50 ? person.password : `Errada#${i}` } }),
    );
    const answers = await Promise.all(tries);
    const counts = statuses(answers);
    expect(Object.keys(counts).sort()).toEqual(expect.arrayContaining(['429']));
    expect(counts[500] ?? 0).toBe(0);
    // Only the budget's 10 units reached the password check. The right password may be among the
    // tries that took a unit (the requests race); it then passes and gives its unit back, so one
    // wrong try more may be checked. Wrong ones checked never pass 10.
    const wrongChecked = counts[401] ?? 0;
    expect(wrongChecked).toBeLessThanOrEqual(10);
    // Only the right password can pass, and only once.
    expect(counts[200] ?? 0).toBeLessThanOrEqual(1);
    expect([-1, 50]).toContain(answers.findIndex((a) => a.status === 200));
    expect(answers.filter((a) => a.status === 429).every((a) => a.body.message === 'Too many attempts')).toBe(true);
    // Whatever the race left, the budget is 10 minus the wrong tries checked: exactly that many more
    // wrong tries are checked, and then the right password is refused too.
    for (let i = wrongChecked; i < 10; i++) {
      expect((await from('POST', '/auth/login', { body: { email: person.email, password: `Depois#${i}` } })).status).toBe(401);
    }
    expect((await from('POST', '/auth/login', { body: { email: person.email, password: person.password } })).status).toBe(429);
  });

  it('a right password gives its unit back: ten good logins in a row leave the budget whole', async () => {
    const person = await register();
    const from = callFrom(uniqueLoopback());
    for (let i = 0; i < 12; i++) expect((await from('POST', '/auth/login', { body: { email: person.email, password: person.password } })).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await from('POST', '/auth/login', { body: { email: person.email, password: `Errada#${i}` } })).status).toBe(401);
    expect((await from('POST', '/auth/login', { body: { email: person.email, password: person.password } })).status).toBe(200);
  });

  it('40 parallel guesses of a verification code: the address budget refuses the ones past 30, the code takes 5 tries at most, none answers 500', async () => {
    const person = await register();
    const code = (await lastMail(person.email))!.code!;
    const from = callFrom(uniqueLoopback());
    const guesses = Array.from({ length: 40 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all(guesses.map((verifyCode) => from('POST', '/auth/verify-email', { body: { userId: person.id, verifyCode } })));
    const counts = statuses(answers);
    expect(counts[500] ?? 0).toBe(0);
    expect(counts[429]).toBe(10);
    expect(counts[400]).toBe(30);
    // Five wrong tries spent the code: the right one, from anywhere, is refused now.
    const late = await call('POST', '/auth/verify-email', { body: { userId: person.id, verifyCode: code } });
    expect(late.status).toBe(400);
    expect((await call('GET', '/auth/me', { token: person.accessToken })).body.user.emailVerified).toBe(false);
  });
});

describe('one-time codes are used once', () => {
  it('one reset code sent by 8 concurrent requests resets the password exactly once', async () => {
    const person = await register();
    await call('POST', '/auth/forgot-password', { body: { email: person.email } });
    const code = (await lastMail(person.email))!.code!;
    const from = callFrom(uniqueLoopback());
    const passwords = Array.from({ length: 8 }, (_, i) => `Nova#Senha${i}00`);
    const answers = await Promise.all(
      passwords.map((password) => from('POST', '/auth/reset-password', { body: { email: person.email, verifyCode: code, password } })),
    );
    expect(statuses(answers)).toEqual({ 200: 1, 400: 7 });
    const winner = passwords[answers.findIndex((a) => a.status === 200)]!;
    expect(await signIn(person.email, winner)).toBeTruthy();
    for (const other of passwords.filter((p) => p !== winner)) {
      expect((await call('POST', '/auth/login', { body: { email: person.email, password: other } })).status).toBe(401);
    }
  });

  it('one verification code sent by 8 concurrent requests is used once', async () => {
    const person = await register();
    const code = (await lastMail(person.email))!.code!;
    const from = callFrom(uniqueLoopback());
    const answers = await Promise.all(Array.from({ length: 8 }, () => from('POST', '/auth/verify-email', { body: { userId: person.id, verifyCode: code } })));
    expect(statuses(answers)).toEqual({ 204: 1, 400: 7 });
  });
});

describe('sessions that end stay ended', () => {
  it('archiving ends a user’s sessions for good: unarchiving does not bring the old token back', async () => {
    const { owner, member } = await proTeam();
    expect((await call('GET', '/auth/me', { token: member.token })).status).toBe(200);
    expect((await call('POST', `/users/${member.id}/archive`, { token: owner.token, body: { archive: true } })).status).toBe(200);
    expect((await call('GET', '/auth/me', { token: member.token })).status).toBe(401);
    expect((await call('POST', `/users/${member.id}/archive`, { token: owner.token, body: { archive: false } })).status).toBe(200);
    expect((await call('GET', '/auth/me', { token: member.token })).status).toBe(401);
    // The user signs in again with a fresh session.
    const fresh = await signIn(member.email, strongPassword);
    expect((await call('GET', '/auth/me', { token: fresh })).status).toBe(200);
  });

  it('a password an admin sets ends that user’s sessions; the admin’s own and the user’s own change keep theirs', async () => {
    const { owner, admin, member } = await proTeam();
    const set = await call('PUT', `/users/${member.id}`, { token: admin.token, body: { name: 'Membro', email: member.email, password: 'Definida#Pelo1' } });
    expect(set.status).toBe(200);
    expect((await call('GET', '/auth/me', { token: member.token })).status).toBe(401);
    expect((await call('GET', '/auth/me', { token: admin.token })).status).toBe(200);
    expect((await call('GET', '/auth/me', { token: owner.token })).status).toBe(200);
    const fresh = await signIn(member.email, 'Definida#Pelo1');
    // The user changing their own password keeps the session they are using.
    await call('PUT', `/users/${member.id}`, { token: fresh, body: { name: 'Membro', email: member.email, password: 'Minha#Propria2' } });
    expect((await call('GET', '/auth/me', { token: fresh })).status).toBe(200);
  });
});
