/**
 * Registering a number on the Cloud API when a connection is saved with it (ADR-0216). Meta's "Register a business phone number" page: a number must be
 * registered before it sends or receives through the Cloud API, only through the API
 * (`POST /{phone-number-id}/register` with `messaging_product: 'whatsapp'` and a six-digit `pin`):
 * WhatsApp Manager and the App Dashboard cannot, except for the test number Meta registers itself.
 * The PIN is the number's two-step verification PIN when it has one, else it becomes it; and Meta
 * allows 10 registrations per number in 72 hours (then 133016 and no registration for 72 hours), so
 * the call is made only for a number whose `status` is `PENDING` (not registered: it turns
 * `CONNECTED` once registered), never on every save or start.
 *
 * The PIN comes from the connection form (`registrationPin`), is used for this call only and never
 * stored. Its refusals are field errors on it: none given, Meta's 133005 (not the number's PIN),
 * 133016 (too many registrations); anything else is the channel unreachable.
 */
import { errorTexts } from '#contracts/errors.ts';
import { cloudCredentialTexts, type CloudCredentials } from '#contracts/services.ts';
import { ChannelUnreachable, CredentialsRejected } from '#domain/channels/port.ts';
import { graphClient, GraphError } from './graph-client.ts';

/** Meta's codes for a refused registration: the PIN is not the number's, and too many registrations in 72 hours. */
const pinMismatch = 133005;
const registrationLimit = 133016;

const pinRejected = (message: string, why: string) =>
  new CredentialsRejected(why, { field: { error: errorTexts.whatsappCloudCredentialsInvalid, path: 'registrationPin', message } });

const unreachable = (error: unknown) =>
  error instanceof GraphError
    ? new ChannelUnreachable(`Graph API ${error.status} (#${error.code}) ${error.message}`, { cause: error })
    : new ChannelUnreachable((error as Error).message, { cause: error });

/** Registers the number when Meta says it is not registered yet; does nothing for a registered one. */
export async function registerIfPending(credentials: CloudCredentials, pin: string | undefined): Promise<'registered' | 'already'> {
  const graph = graphClient(credentials.accessToken);
  const number = encodeURIComponent(credentials.phoneNumberId);
  let status: string | undefined;
  try {
    status = (await graph.get<{ status?: string }>(number, { fields: 'status' })).status;
  } catch (error) {
    throw unreachable(error);
  }
  if (status !== 'PENDING') return 'already';
  if (!pin) throw pinRejected(cloudCredentialTexts.registrationPinRequired, 'The number is not registered on the Cloud API and no PIN was given');
  try {
    await graph.post(`${number}/register`, { messaging_product: 'whatsapp', pin });
    return 'registered';
  } catch (error) {
    if (error instanceof GraphError && error.code === pinMismatch)
      throw pinRejected(cloudCredentialTexts.registrationPinMismatch, `Graph API ${pinMismatch}: ${error.message}`);
    if (error instanceof GraphError && error.code === registrationLimit)
      throw pinRejected(cloudCredentialTexts.registrationLimit, `Graph API ${registrationLimit}: ${error.message}`);
    throw unreachable(error);
  }
}
