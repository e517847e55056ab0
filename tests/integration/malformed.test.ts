import { beforeAll, describe, expect, it } from 'vitest';
import { httpRoutes } from '#functions/http/routes.ts';
import { errorTexts } from '#contracts/errors.ts';
import { call, proTeam, signIn, type Answer } from './api.ts';

/** Below 500, or the deliberate 503 of a server without a Stripe key (this runtime has none). */
function expectNoFailure(answer: Answer, label: string) {
  if (answer.status === 503) expect(answer.body.message, label).toBe(errorTexts.paymentsNotConfigured);
  else expect(answer.status, `${label}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
}

const bodies: { label: string; raw: string }[] = [
  { label: 'broken JSON', raw: '{"name": ' },
  { label: 'a JSON array', raw: '[1,2,3]' },
  { label: 'JSON null', raw: 'null' },
  { label: 'a bare string', raw: '"hello"' },
  { label: 'wrong types', raw: JSON.stringify({ name: 42, email: ['a'], password: { x: 1 }, archive: 'yes', accountId: 7, verifyCode: 123456, userId: null }) },
  { label: 'huge strings', raw: JSON.stringify({ name: 'x'.repeat(100_000), email: `${'a'.repeat(5000)}@example.com`, password: 'p'.repeat(10_000) }) },
  { label: 'prototype pollution', raw: '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}' },
  { label: 'deep nesting', raw: `${'['.repeat(5000)}${']'.repeat(5000)}` },
];

/**
 * Routes whose handler checks a signature over the raw body before anything parses it (Meta's
 * X-Hub-Signature-256): broken JSON is refused by that check (a 4xx), never as 'Invalid params'.
 */
const signatureFirst = new Set(['POST /webhooks/whatsapp-cloud/{serviceId}']);

describe('malformed input never gets a 500', () => {
  let userId: string;
  let accountId: string;
  let email: string;
  let password: string;
  beforeAll(async () => {
    const team = await proTeam();
    email = team.owner.email;
    password = team.owner.password;
    userId = team.member.id;
    accountId = team.owner.accountId;
  });

  /**
   * The owner's session, for every route but one: signed in again only when a route's requests
   * ended it (the logout route's do). A sign-in is a password hash check, the most costly request
   * here (about 0.1 s of CPU), and a session that still answers GET /auth/me is as good as a new one.
   */
  let session: string | undefined;
  const ownerSession = async () => {
    if (session && (await call('GET', '/auth/me', { token: session })).status === 200) return session;
    session = await signIn(email, password);
    return session;
  };

  for (const route of httpRoutes) {
    it(`${route.method} ${route.path}`, async () => {
      // A live session of the owner per route; deleting an account gets an account of its own.
      const own = route.method === 'DELETE' && route.path === '/accounts/{id}' ? (await proTeam()).owner : undefined;
      const token = own?.token ?? (await ownerSession());
      const path = route.path.replace('{id}', own?.accountId ?? (route.path.startsWith('/accounts') ? accountId : userId));
      for (const { label, raw } of route.method === 'GET' ? [] : bodies) {
        const answer = await call(route.method, path, { token, raw });
        expectNoFailure(answer, label);
        if (label === 'broken JSON' && signatureFirst.has(`${route.method} ${route.path}`)) expect(answer.status, label).toBeGreaterThanOrEqual(400);
        else if (label === 'broken JSON' && answer.status !== 503) expect(answer.body.message).toBe('Invalid params');
        if (answer.status >= 400) {
          expect(answer.body, label).toMatchObject({ statusCode: answer.status, error: expect.any(String), message: expect.any(String) });
        }
      }
      const weirdQuery = await call(route.method, `${path}?query=${encodeURIComponent('{"where":{"or":"x"}}')}`, { token });
      expectNoFailure(weirdQuery, 'odd query');
      const weirdId = await call(route.method, route.path.replace('{id}', encodeURIComponent('%%%/../x')), {
        token,
        raw: route.method === 'GET' ? undefined : '{}',
      });
      expectNoFailure(weirdId, 'odd id');
    });
  }
});
