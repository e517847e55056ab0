/**
 * Checking, starting and stopping Cloud API connections. The credentials (phone number id, WABA
 * id, system-user token, app secret) travel as one sealed token (#domain/channels/cloud-credentials.ts).
 *
 * - Verify (on save): GET /{phone-number-id} with the number's fields, answered as the connection's
 *   profile (display number, verified name, quality rating); GET /{waba-id}/phone_numbers confirms
 *   the number is the WABA's. A refused token (190) is a field error on the token, an id the token
 *   cannot see one on that id. A number not registered on the Cloud API yet is registered with the
 *   PIN the form gave (./registration.ts), or the PIN is asked for.
 * - Start: the number read again (a token revoked since saving stops here), then the app subscribed
 *   to the WABA's webhooks (POST /{waba-id}/subscribed_apps): `connected`, no session to hold.
 * - Stop: the app is unsubscribed only when no other running connection uses the same WABA (one
 *   subscription serves every number of the account; ./storage.ts counts its users).
 */
import { errorTexts } from '#contracts/errors.ts';
import { cloudCredentialTexts, cloudQualityRatings, serviceStopReasons, type CloudCredentials, type CloudQualityRating } from '#contracts/services.ts';
import { parseCloudCredentials } from '#domain/channels/cloud-credentials.ts';
import { ChannelUnreachable, CredentialsRejected, type ChannelCredentials, type ChannelLifecycle, type ChannelProfile } from '#domain/channels/port.ts';
import { graphClient, GraphError, GraphUnreachable } from './graph-client.ts';
import { registerIfPending } from './registration.ts';
import { addWabaSubscriber, removeWabaSubscriber } from './storage.ts';
import { webhookOverride } from './webhook-override.ts';

/** The number's fields read on save and at start. */
export const phoneNumberFields = ['display_phone_number', 'verified_name', 'quality_rating', 'code_verification_status', 'platform_type'] as const;

interface PhoneNumberAnswer {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
  quality_rating?: string;
}

const rejected = (path: keyof CloudCredentials, message: string, why: string) =>
  new CredentialsRejected(why, {
    field: { error: errorTexts.whatsappCloudCredentialsInvalid, path, message },
    stopReason: serviceStopReasons.cloudTokenRejected,
  });

/** A Graph failure of a call about the credentials (`about`: which id the call named), as the port's errors. */
export function controlError(error: unknown, about: 'phoneNumberId' | 'wabaId'): Error {
  if (error instanceof GraphError) {
    if (error.tokenRejected) return rejected('accessToken', cloudCredentialTexts.accessTokenRejected, `Graph API 190: ${error.message}`);
    if (error.objectNotFound) {
      const message = about === 'phoneNumberId' ? cloudCredentialTexts.phoneNumberNotFound : cloudCredentialTexts.wabaMismatch;
      return rejected(about, message, `Graph API: ${about} not found (${error.message})`);
    }
    return new ChannelUnreachable(`Graph API ${error.status} (#${error.code}) ${error.message}`, { cause: error });
  }
  if (error instanceof GraphUnreachable) return new ChannelUnreachable(error.message, { cause: error });
  return error instanceof Error ? error : new Error(String(error));
}

async function call<T>(about: 'phoneNumberId' | 'wabaId', fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw controlError(error, about);
  }
}

function credentialsOf(token: string | null): CloudCredentials {
  const credentials = parseCloudCredentials(token);
  if (!credentials) throw new ChannelUnreachable('The connection has no Cloud API credentials');
  return credentials;
}

const qualityOf = (value: string | undefined): CloudQualityRating =>
  cloudQualityRatings.includes(value as CloudQualityRating) ? (value as CloudQualityRating) : 'UNKNOWN';

/** Reads the number with the token: its profile, or the port's errors. */
export async function readPhoneNumber(credentials: CloudCredentials): Promise<ChannelProfile> {
  const graph = graphClient(credentials.accessToken);
  const answer = await call('phoneNumberId', () =>
    graph.get<PhoneNumberAnswer>(encodeURIComponent(credentials.phoneNumberId), { fields: phoneNumberFields.join(',') }),
  );
  return {
    displayPhoneNumber: answer.display_phone_number ?? '',
    verifiedName: answer.verified_name ?? '',
    qualityRating: qualityOf(answer.quality_rating),
  };
}

export const whatsappCloudCredentials: ChannelCredentials = {
  async verify(token, options) {
    const credentials = credentialsOf(token);
    const profile = await readPhoneNumber(credentials);
    const graph = graphClient(credentials.accessToken);
    const numbers = await call('wabaId', () =>
      graph.get<{ data?: { id?: string }[] }>(`${encodeURIComponent(credentials.wabaId)}/phone_numbers`, { fields: 'id' }),
    );
    if (!numbers.data?.some((number) => number.id === credentials.phoneNumberId)) {
      throw rejected('wabaId', cloudCredentialTexts.wabaMismatch, 'The number is not in this WABA');
    }
    await registerIfPending(credentials, options?.registrationPin);
    return profile;
  },
  // Two connections of one number would both take its deliveries: a number serves one connection.
  exclusive: (token) => ({
    kind: 'NUMBER',
    id: credentialsOf(token).phoneNumberId,
    inUse: { error: errorTexts.whatsappCloudNumberInUse, path: 'phoneNumberId', message: 'Este número já está em uso em outra conexão' },
  }),
};

export const whatsappCloudLifecycle: ChannelLifecycle = {
  async start(ports, run) {
    const credentials = credentialsOf(run.token);
    await readPhoneNumber(credentials);
    const graph = graphClient(credentials.accessToken);
    // On the operator's Meta app (Embedded Signup), the WABA's deliveries come to this connection's own URL (./webhook-override.ts).
    const override = await webhookOverride(ports, run.serviceId, credentials);
    await call('wabaId', () => graph.post(`${encodeURIComponent(credentials.wabaId)}/subscribed_apps`, override ? { ...override } : {}));
    await addWabaSubscriber(ports.table, credentials.wabaId, run.serviceId, ports.clock());
    return 'connected';
  },

  async stop(ports, connection) {
    const credentials = parseCloudCredentials(connection.token);
    if (!credentials) return;
    const left = await removeWabaSubscriber(ports.table, credentials.wabaId, connection.serviceId);
    if (left > 0) return;
    const graph = graphClient(credentials.accessToken);
    await call('wabaId', () => graph.delete(`${encodeURIComponent(credentials.wabaId)}/subscribed_apps`));
  },
};
