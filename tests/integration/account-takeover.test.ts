/**
 * The account takeover found by an outside attack (docs/security.md, "Who owns an address"), end to end and link by link: an
 * attacker with an account of their own, knowing only the victim's e-mail, must get nothing of the
 * victim's, in any order of the chain's steps. Each test here failed before the fix:
 * `PUT /users/{own id}` moved the e-mail at once, a verification code (bound to the user, not the
 * address) then confirmed it, and switch-account and `GET /accounts` took "same confirmed e-mail" as
 * proof of being the same person.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../support/property-runs.ts';
import { callFrom, lastMail, newOwner as freeOwner, register, setPlan, signIn, strongPassword, uniqueEmail, uniqueLoopback } from './api.ts';

/**
 * This file's requests come from an address of its own, so its refused tries spend no other file's
 * budgets; each run of the property moves to a fresh one (a run's refused codes count too).
 */
let call = callFrom(uniqueLoopback());

/** An owner on a plan with room for the users these tests add. */
async function newOwner(accountName?: string, name?: string) {
  const owner = await freeOwner(accountName, name);
  await setPlan(owner.accountId, { productName: 'Pro', users: 10, connections: 5, contacts: 25000 });
  return owner;
}

/** A victim as the product makes them: signed up, e-mail confirmed, with an account and a contact. */
async function victim() {
  const owner = await newOwner('Loja da Vítima', 'Vera Vítima');
  const code = (await lastMail(owner.email))!.code!;
  expect((await call('POST', '/auth/verify-email', { body: { userId: owner.user.id, verifyCode: code } })).status).toBe(204);
  return owner;
}

/** The attacker: their own sign-up (its verification code kept unused) and their own account. */
async function attacker() {
  const person = await register('Ana Atacante');
  const keptCode = (await lastMail(person.email))!.code!;
  const created = await call('POST', '/accounts', { token: person.accessToken, body: { name: 'Conta da Atacante' } });
  expect(created.status).toBe(201);
  await setPlan(created.body.id, { productName: 'Pro', users: 10, connections: 5, contacts: 25000 });
  return { id: person.id as string, email: person.email, token: created.body.accessToken as string, accountId: created.body.id as string, keptCode };
}

/** Everything the attacker's token reaches, checked to hold nothing of the victim's. */
async function expectNothingOfTheVictims(token: string, target: Awaited<ReturnType<typeof victim>>) {
  const accounts = await call('GET', '/accounts', { token });
  expect(accounts.status).toBe(200);
  expect(accounts.body.data.map((a: { id: string }) => a.id)).not.toContain(target.accountId);
  expect(JSON.stringify(accounts.body)).not.toContain('Loja da Vítima');
  const switched = await call('POST', '/auth/switch-account', { token, body: { accountId: target.accountId } });
  expect(switched.status).toBe(404);
  expect(JSON.stringify(switched.body)).not.toContain(target.accountId);
  const me = await call('GET', '/auth/me', { token });
  // Not one of the victim's users (a user of the attacker's own account may bear the victim's e-mail: one they added).
  expect(me.body.user.id).not.toBe(target.user.id);
  expect(me.body.user.accountId).not.toBe(target.accountId);
}

describe('the takeover chain no longer works', () => {
  it('as reported: change the own e-mail to the victim’s, confirm with the kept code, switch into the victim’s account', async () => {
    const target = await victim();
    const me = await attacker();
    const changed = await call('PUT', `/users/${me.id}`, { token: me.token, body: { name: 'Ana Atacante', email: target.email } });
    expect(changed.status).toBe(200);
    // The address waits for proof: the user keeps its own.
    expect(changed.body).toMatchObject({ email: me.email, pendingEmail: target.email });
    await expectNothingOfTheVictims(me.token, target);
    const confirmed = await call('POST', '/auth/verify-email', { body: { userId: me.id, verifyCode: me.keptCode } });
    expect(confirmed.status).toBe(400);
    expect(confirmed.body.message).toBe('Invalid or expired code');
    await expectNothingOfTheVictims(me.token, target);
    expect((await call('GET', '/auth/me', { token: me.token })).body.user.email).toBe(me.email);
    // The victim still signs in to their own account.
    expect((await call('GET', '/auth/me', { token: await signIn(target.email, target.password) })).body.user.accountId).toBe(target.accountId);
  });

  it('in other orders: confirm the own address first, ask a fresh code after the change, use the kept code after a resend', async () => {
    const target = await victim();
    const me = await attacker();
    // Confirm the attacker's own address first: it proves that address, nothing else.
    expect((await call('POST', '/auth/verify-email', { body: { userId: me.id, verifyCode: me.keptCode } })).status).toBe(204);
    await call('PUT', `/users/${me.id}`, { token: me.token, body: { name: 'Ana', email: target.email } });
    await expectNothingOfTheVictims(me.token, target);
    // A fresh code goes to the pending address (the victim's mailbox), never to the attacker's.
    const before = await lastMail(me.email);
    expect((await call('POST', '/auth/resend-verification', { body: { userId: me.id } })).status).toBe(204);
    expect(await lastMail(me.email)).toEqual(before);
    expect((await lastMail(target.email))?.subject).toBe('Confirme seu novo e-mail no Conversa');
    // The one code the attacker can read now, a reset code for their own address, proves nothing else.
    await call('POST', '/auth/forgot-password', { body: { email: me.email } });
    const ownResetCode = (await lastMail(me.email))!.code!;
    expect((await call('POST', '/auth/verify-email', { body: { userId: me.id, verifyCode: ownResetCode } })).status).toBe(400);
    expect((await call('POST', '/auth/reset-password', { body: { email: target.email, verifyCode: ownResetCode, password: 'Tomada#123' } })).status).toBe(400);
    await expectNothingOfTheVictims(me.token, target);
    expect(await signIn(target.email, target.password)).toBeTruthy();
  });

  it('a user an attacker adds with the victim’s e-mail and a password they chose reaches nothing of the victim’s, even once the victim confirms it', async () => {
    const target = await victim();
    const me = await attacker();
    const added = await call('POST', '/users', {
      token: me.token,
      body: { name: 'Vera (convite)', email: target.email, password: 'Escolhida#Pelo1', isAdmin: true },
    });
    expect(added.status).toBe(201);
    // The victim confirms the address of that user (a real invitee would): a code mailed to them.
    expect((await call('POST', '/auth/resend-verification', { body: { userId: added.body.id } })).status).toBe(204);
    const code = (await lastMail(target.email))!.code!;
    expect((await call('POST', '/auth/verify-email', { body: { userId: added.body.id, verifyCode: code } })).status).toBe(204);
    // The attacker signs in as that user with the password they set: only their own account opens.
    const login = await call('POST', '/auth/login', { body: { email: target.email, password: 'Escolhida#Pelo1' } });
    expect(login.status).toBe(200);
    expect(login.body.user.accountId).toBe(me.accountId);
    await expectNothingOfTheVictims(login.body.accessToken, target);
    const chosen = await call('POST', '/auth/login', { body: { email: target.email, password: 'Escolhida#Pelo1', accountId: target.accountId } });
    expect(chosen.status).toBe(401);
  });
});

describe('each link on its own', () => {
  it('an e-mail change takes effect only with the code sent to the new address; the old address is told', async () => {
    const owner = await newOwner('Loja Troca');
    const member = await call('POST', '/users', { token: owner.token, body: { name: 'Beto', email: uniqueEmail('beto'), password: strongPassword } });
    const oldEmail = member.body.email as string;
    const newEmail = uniqueEmail('beto-novo');
    const token = await signIn(oldEmail, strongPassword);
    const asked = await call('PUT', `/users/${member.body.id}`, { token, body: { name: 'Beto', email: newEmail } });
    expect(asked.body).toMatchObject({ email: oldEmail, pendingEmail: newEmail });
    const notice = await lastMail(oldEmail);
    expect(notice?.subject).toBe('Pedido de troca de e-mail no Conversa');
    expect(notice?.text).toContain(newEmail);
    expect(notice?.code).toBeUndefined();
    const mail = await lastMail(newEmail);
    expect(mail?.subject).toBe('Confirme seu novo e-mail no Conversa');
    expect(mail?.text).toContain(`/verify-email?userId=${member.body.id}`);
    // Until then the old address signs in and the new one does not.
    expect((await call('POST', '/auth/login', { body: { email: newEmail, password: strongPassword } })).status).toBe(401);
    expect(await signIn(oldEmail, strongPassword)).toBeTruthy();
    // Saving the form again with the pending address sends nothing more.
    await call('PUT', `/users/${member.body.id}`, { token, body: { name: 'Beto Silva', email: newEmail } });
    expect(await lastMail(newEmail)).toEqual(mail);
    expect((await call('POST', '/auth/verify-email', { body: { userId: member.body.id, verifyCode: mail!.code } })).status).toBe(204);
    const me = await call('GET', '/auth/me', { token });
    expect(me.body.user).toMatchObject({ email: newEmail, pendingEmail: null, emailVerified: true, name: 'Beto Silva' });
    expect(await signIn(newEmail, strongPassword)).toBeTruthy();
    expect((await call('POST', '/auth/login', { body: { email: oldEmail, password: strongPassword } })).status).toBe(401);
    // The old address is free in the account again.
    expect((await call('POST', '/users', { token: owner.token, body: { name: 'Outro', email: oldEmail, password: strongPassword } })).status).toBe(201);
  });

  it('sending the current e-mail again cancels a pending change, and its code then moves nothing', async () => {
    const owner = await newOwner('Loja Cancela');
    const newEmail = uniqueEmail('cancelado');
    await call('PUT', `/users/${owner.user.id}`, { token: owner.token, body: { name: 'Dona', email: newEmail } });
    const code = (await lastMail(newEmail))!.code!;
    const back = await call('PUT', `/users/${owner.user.id}`, { token: owner.token, body: { name: 'Dona', email: owner.email } });
    expect(back.body).toMatchObject({ email: owner.email, pendingEmail: null });
    expect((await call('POST', '/auth/verify-email', { body: { userId: owner.user.id, verifyCode: code } })).status).toBe(400);
    expect((await call('GET', '/auth/me', { token: owner.token })).body.user.email).toBe(owner.email);
  });

  it('a pending address another user of the account takes meanwhile is refused at confirmation, and nothing moves', async () => {
    const owner = await newOwner('Loja Disputa');
    const wanted = uniqueEmail('disputado');
    await call('PUT', `/users/${owner.user.id}`, { token: owner.token, body: { name: 'Dona', email: wanted } });
    const code = (await lastMail(wanted))!.code!;
    expect((await call('POST', '/users', { token: owner.token, body: { name: 'Rápido', email: wanted, password: strongPassword } })).status).toBe(201);
    const late = await call('POST', '/auth/verify-email', { body: { userId: owner.user.id, verifyCode: code } });
    expect(late.status).toBe(400);
    expect(late.body.message).toBe('Email already exists');
    expect((await call('GET', '/auth/me', { token: owner.token })).body.user.email).toBe(owner.email);
    // Asking for an address another user of the account already has is refused at once.
    const taken = await call('PUT', `/users/${owner.user.id}`, { token: owner.token, body: { name: 'Dona', email: wanted } });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toBe('Email already exists');
  });

  it('a code proves only the address and purpose it was sent for', async () => {
    const one = await register('Um');
    const other = await register('Outro');
    // A reset code of one address does not reset another's password, nor confirm an e-mail.
    await call('POST', '/auth/forgot-password', { body: { email: one.email } });
    const resetCode = (await lastMail(one.email))!.code!;
    const crossed = await call('POST', '/auth/reset-password', { body: { email: other.email, verifyCode: resetCode, password: 'Nova#Senha456' } });
    expect(crossed.status).toBe(400);
    expect((await call('POST', '/auth/verify-email', { body: { userId: one.id, verifyCode: resetCode } })).status).toBe(400);
    // A verification code of one user confirms nothing of another user's.
    const verifyCode = (await lastMail(other.email))!.code!;
    expect((await call('POST', '/auth/verify-email', { body: { userId: one.id, verifyCode } })).status).toBe(400);
    expect((await call('GET', '/auth/me', { token: one.accessToken })).body.user.emailVerified).toBe(false);
    expect(await signIn(other.email, other.password)).toBeTruthy();
  });

  it('switch-account and the account list reach only the users the caller’s own credentials open', async () => {
    const person = await newOwner('Alfa', 'Rita');
    const second = await call('POST', '/accounts', { token: person.token, body: { name: 'Beta' } });
    // Another account adds a user with Rita's e-mail (a password Rita does not know).
    const stranger = await newOwner('Gama Estranha');
    const added = await call('POST', '/users', { token: stranger.token, body: { name: 'Rita?', email: person.email, password: 'Outra#Senha987' } });
    expect(added.status).toBe(201);
    const listed = await call('GET', '/accounts', { token: person.token });
    expect(listed.body.data.map((a: { name: string }) => a.name).sort()).toEqual(['Alfa', 'Beta']);
    expect((await call('POST', '/auth/switch-account', { token: person.token, body: { accountId: second.body.id } })).status).toBe(200);
    expect((await call('POST', '/auth/switch-account', { token: person.token, body: { accountId: stranger.accountId } })).status).toBe(404);
    // And from the stranger's side: that user reaches Gama only.
    const asAdded = await signIn(person.email, 'Outra#Senha987');
    const theirs = await call('GET', '/accounts', { token: asAdded });
    expect(theirs.body.data.map((a: { name: string }) => a.name)).toEqual(['Gama Estranha']);
    for (const accountId of [person.accountId, second.body.id]) {
      expect((await call('POST', '/auth/switch-account', { token: asAdded, body: { accountId } })).status).toBe(404);
    }
  });
});

/**
 * The chain in any order: fast-check draws sequences of everything an attacker can do with their own
 * account, their own mailbox and the victim's e-mail string, and after every step checks that none
 * of the attacker's sessions reaches the victim's account. Seeded like request-properties.test.ts
 * (PROPERTY_SEED replays a failure, PROPERTY_RUNS sets the runs).
 */
describe('the takeover chain, in any order of its steps (property)', () => {
  const steps = [
    'ask for the victim’s e-mail',
    'ask for the own e-mail back',
    'confirm with the newest own code',
    'resend the verification code',
    'confirm with an own reset code',
    'reset the victim’s password with an own reset code',
    'add a user with the victim’s e-mail',
    'sign in with the victim’s e-mail',
    'create another account',
  ] as const;
  type Step = (typeof steps)[number];

  it('no sequence of the attacker’s steps reaches the victim’s account', async () => {
    // A few sequences on every `npm test`, twelve with CONVERSA_PROPERTY_RUNS=full.
    await assertProperty(
      fc.asyncProperty(fc.array(fc.constantFrom(...steps), { minLength: 2, maxLength: 8 }), async (sequence: Step[]) => {
        call = callFrom(uniqueLoopback());
        const target = await victim();
        const me = await attacker();
        const tokens = [me.token];
        const chosenPassword = 'Escolhida#Pela1';
        const ownCode = async () => (await lastMail(me.email))?.code;
        const answers: unknown[] = [];
        for (const step of sequence) {
          const token = tokens.at(-1)!;
          const run: Record<Step, () => Promise<unknown>> = {
            'ask for the victim’s e-mail': () => call('PUT', `/users/${me.id}`, { token: me.token, body: { name: 'Ana', email: target.email } }),
            'ask for the own e-mail back': () => call('PUT', `/users/${me.id}`, { token: me.token, body: { name: 'Ana', email: me.email } }),
            'confirm with the newest own code': async () =>
              call('POST', '/auth/verify-email', { body: { userId: me.id, verifyCode: (await ownCode()) ?? me.keptCode } }),
            'resend the verification code': () => call('POST', '/auth/resend-verification', { body: { userId: me.id } }),
            'confirm with an own reset code': async () => {
              await call('POST', '/auth/forgot-password', { body: { email: me.email } });
              return call('POST', '/auth/verify-email', { body: { userId: me.id, verifyCode: (await ownCode()) ?? '000000' } });
            },
            'reset the victim’s password with an own reset code': async () => {
              await call('POST', '/auth/forgot-password', { body: { email: me.email } });
              const verifyCode = (await ownCode()) ?? '000000';
              return call('POST', '/auth/reset-password', {
                body: { email: target.email, verifyCode, password: 'Tomada#Senha1', accountId: target.accountId },
              });
            },
            'add a user with the victim’s e-mail': () =>
              call('POST', '/users', { token: me.token, body: { name: 'Vera?', email: target.email, password: chosenPassword, isAdmin: true } }),
            'sign in with the victim’s e-mail': async () => {
              const answer = await call('POST', '/auth/login', { body: { email: target.email, password: chosenPassword } });
              if (answer.body?.accessToken) tokens.push(answer.body.accessToken);
              return answer;
            },
            'create another account': async () => {
              const answer = await call('POST', '/accounts', { token, body: { name: 'Mais uma' } });
              if (answer.body?.accessToken) tokens.push(answer.body.accessToken);
              return answer;
            },
          };
          answers.push(await run[step]());
        }
        expect(JSON.stringify(answers)).not.toContain(target.accountId);
        for (const token of tokens) await expectNothingOfTheVictims(token, target);
        expect(await signIn(target.email, target.password)).toBeTruthy();
      }),
      { quick: 4, full: 12 },
      { endOnFailure: true },
    );
  }, 240_000);
});
