/**
 * 'Conectar com a Meta' (docs/product.md#screens, ADR-0217): a WhatsApp
 * (API oficial) connection made from what Meta's Embedded Signup handed the browser. The code is
 * exchanged for the business's token with the operator's Meta app, the number is registered for the
 * Cloud API unless it is a WhatsApp Business app number (coexistence), and from there the connection
 * is made and started exactly as with typed credentials: `createService` checks the number with the
 * token, and the start subscribes the WABA's webhooks (to this connection's own URL, since the app
 * is the operator's; connectors/whatsapp-cloud/webhook-override.ts). The app secret sealed with the
 * connection is the operator's: it signs the deliveries of every business onboarded through it.
 */
import { embeddedSignupTexts, type EmbeddedSignupPayload } from '#contracts/embedded-signup.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { Service } from '#contracts/services.ts';
import { ChannelUnreachable, CredentialsRejected, type MetaApp } from '../channels/port.ts';
import { DomainError, fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { createService, getService, runServiceAction } from './services.ts';

function translate(error: unknown): never {
  if (error instanceof CredentialsRejected && error.details.field) {
    const field = error.details.field;
    throw fail.invalid(field.error, [{ path: field.path, message: field.message }]);
  }
  if (error instanceof ChannelUnreachable) throw fail.invalid(errorTexts.channelUnreachable);
  throw error;
}

/** `app`: the operator's Meta app, null where none is configured (the route then refuses). */
export async function connectByEmbeddedSignup(ports: Ports, session: AccountSession, app: MetaApp | null, payload: EmbeddedSignupPayload): Promise<Service> {
  if (!app) throw fail.invalid(errorTexts.invalidParams, [{ path: 'code', message: embeddedSignupTexts.notConfigured }]);
  const signup = ports.channels.get('whatsapp_cloud')?.embeddedSignup;
  if (!signup) throw fail.invalid(errorTexts.channelNotStartable);
  const accessToken = await signup.exchangeCode(app, payload.code).catch(translate);
  const phoneNumberId = payload.phoneNumberId ?? (await signup.onlyNumber(accessToken, payload.wabaId).catch(translate));
  if (!payload.coexistence) await signup.register(accessToken, phoneNumberId).catch(translate);
  const service = await createService(ports, session, {
    name: payload.name,
    type: 'whatsapp_cloud',
    phoneNumberId,
    wabaId: payload.wabaId,
    accessToken,
    appSecret: app.appSecret,
    defaultDepartmentId: payload.defaultDepartmentId,
    readReceipts: payload.readReceipts,
  });
  // Made: a start Meta refuses (the override's handshake, a throttle) leaves it disconnected with its
  // reason on the list, where 'Iniciar' tries again; the code is spent, so failing here would orphan it.
  try {
    return await runServiceAction(ports, session, service.id, 'start');
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'invalid') return getService(ports, session, service.id);
    throw error;
  }
}
