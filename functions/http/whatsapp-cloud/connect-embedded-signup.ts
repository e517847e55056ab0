import { embeddedSignupPayload } from '#contracts/embedded-signup.ts';
import { connectByEmbeddedSignup } from '#domain/services/embedded-signup.ts';
import { api } from '#lib/api.ts';
import { metaAppSettings } from '#lib/meta-app.ts';
import { created } from '#lib/responses.ts';

// The code exchange, the registration, the number's check and the start: several Graph calls, more than the default 10 s.
export const handler = api({ auth: 'admin', body: embeddedSignupPayload }).handler(async ({ ports, session, body }) =>
  created(await connectByEmbeddedSignup(ports, session, await metaAppSettings(), body)),
);
