import type { EmbeddedSignupConfig } from '#contracts/embedded-signup.ts';
import { api } from '#lib/api.ts';
import { metaAppSettings } from '#lib/meta-app.ts';
import { ok } from '#lib/responses.ts';

// Whether the connection form offers 'Conectar com a Meta': admins only, the secret never answered.
export const handler = api({ auth: 'admin' }).handler(async () => {
  const app = await metaAppSettings();
  const config: EmbeddedSignupConfig = app ? { available: true, appId: app.appId, configId: app.configId } : { available: false };
  return ok(config);
});
