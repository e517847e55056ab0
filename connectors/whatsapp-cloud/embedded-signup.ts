/**
 * The server's half of Meta's Embedded Signup (ADR-0217), as Meta's
 * "Onboarding business customers as a Tech Provider" steps describe it, server to server:
 *
 * 1. GET /oauth/access_token with the operator's app id and secret and the code `FB.login` answered:
 *    the business's token (`{ access_token, token_type }`). The code lives 30 seconds and works once:
 *    Graph answers an OAuthException with code 100 for a mistyped, expired (subcode 36007) or used
 *    (36009) one, which is a field error on `code`. Codes 1 and 101 (a wrong client secret or app id)
 *    are the operator's configuration, not the admin's input: `ChannelUnreachable`, logged.
 * 2. The number: the session message names it, except a WhatsApp Business app number's
 *    (`FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING` carries only the WABA), found as the WABA's only one.
 * 3. POST /{phone-number-id}/register `{ messaging_product: 'whatsapp', pin }` (six random digits,
 *    the number's two-step verification PIN, not kept), skipped for WhatsApp Business app numbers
 *    ("the number is already registered") and for a number Meta says is registered already. Subscribing the WABA's webhooks is the lifecycle's start (./lifecycle.ts,
 *    with ./webhook-override.ts), as for typed credentials.
 */
import { randomInt } from 'node:crypto';
import { embeddedSignupTexts } from '#contracts/embedded-signup.ts';
import { errorTexts } from '#contracts/errors.ts';
import { serviceStopReasons } from '#contracts/services.ts';
import { ChannelUnreachable, CredentialsRejected, type ChannelEmbeddedSignup, type MetaApp } from '#domain/channels/port.ts';
import { graphApiRoot, graphApiVersion, graphTimeoutMs } from './config.ts';
import { graphClient } from './graph-client.ts';
import { controlError } from './lifecycle.ts';
import { registerIfPending } from './registration.ts';

interface GraphErrorBody {
  error?: { code?: unknown; error_subcode?: unknown; message?: unknown };
}

const codeRefused = (why: string) =>
  new CredentialsRejected(why, {
    field: { error: errorTexts.whatsappCloudCredentialsInvalid, path: 'code', message: embeddedSignupTexts.codeRefused },
    stopReason: serviceStopReasons.cloudTokenRejected,
  });

/** GET /oauth/access_token: no Bearer token, the app's credentials and the code in the query, as Meta's example. */
async function exchangeCode(app: MetaApp, code: string): Promise<string> {
  const url = new URL(`${graphApiRoot()}/${graphApiVersion()}/oauth/access_token`);
  url.searchParams.set('client_id', app.appId);
  url.searchParams.set('client_secret', app.appSecret);
  url.searchParams.set('code', code);
  let status: number;
  let answer: { access_token?: unknown } & GraphErrorBody;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(graphTimeoutMs()) });
    status = response.status;
    answer = (await response.json()) as typeof answer;
  } catch (error) {
    throw new ChannelUnreachable(`Graph API GET /oauth/access_token: ${(error as Error).message}`, { cause: error });
  }
  const error = answer.error;
  if (error && typeof error.code === 'number') {
    const message = String(error.message ?? '');
    if (error.code === 100) throw codeRefused(`Graph API ${status} (#100/${String(error.error_subcode ?? '-')}) ${message}`);
    throw new ChannelUnreachable(`Graph API ${status} (#${error.code}) ${message}: check the Meta app's id and secret`);
  }
  if (status !== 200 || typeof answer.access_token !== 'string' || !answer.access_token) {
    throw new ChannelUnreachable(`Graph API GET /oauth/access_token: ${status} without a token`);
  }
  return answer.access_token;
}

async function onlyNumber(accessToken: string, wabaId: string): Promise<string> {
  let numbers: { data?: { id?: unknown }[] };
  try {
    numbers = await graphClient(accessToken).get(`${encodeURIComponent(wabaId)}/phone_numbers`, { fields: 'id' });
  } catch (error) {
    throw controlError(error, 'wabaId');
  }
  const ids = (numbers.data ?? []).map((number) => number.id).filter((id): id is string => typeof id === 'string');
  if (ids.length !== 1) {
    throw new CredentialsRejected(`The WABA has ${ids.length} numbers and the flow named none`, {
      field: { error: errorTexts.whatsappCloudCredentialsInvalid, path: 'phoneNumberId', message: embeddedSignupTexts.numberNotFound },
    });
  }
  return ids[0]!;
}

/**
 * Registered only while Meta says `PENDING` (./registration.ts, which reads just the token and the
 * number): a business connecting a number it registered before (a connection deleted and made
 * again) keeps its PIN, and Meta's 10 registrations in 72 hours are not spent.
 */
async function register(accessToken: string, phoneNumberId: string): Promise<void> {
  const pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await registerIfPending({ phoneNumberId, accessToken, wabaId: '', appSecret: '' }, pin);
}

export const whatsappCloudEmbeddedSignup: ChannelEmbeddedSignup = { exchangeCode, onlyNumber, register };
