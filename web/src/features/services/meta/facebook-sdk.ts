/**
 * Meta's JavaScript SDK, loaded on demand the first time an admin clicks 'Conectar com a Meta' (no
 * page loads it otherwise), initialised and called as Meta's "Embedded Signup Implementation" page
 * shows (ADR-0217): `FB.init({ appId, autoLogAppEvents, xfbml, version })`,
 * then `FB.login(callback, { config_id, response_type: 'code', override_default_response_type: true,
 * extras })`. The site's Content-Security-Policy allows the SDK's origins only where the operator
 * configured a Meta app (infra/site-headers.ts).
 */
import { facebookSdkUrl, facebookSdkVersion } from '#contracts/embedded-signup.ts';

/** The launch options, as Meta documents them for v4: the coexistence feature type only when asked for. */
export interface SignupLoginOptions {
  config_id: string;
  response_type: 'code';
  override_default_response_type: true;
  extras: { setup: Record<string, never>; sessionInfoVersion: '3'; featureType?: 'whatsapp_business_app_onboarding' };
}

interface LoginResponse {
  authResponse?: { code?: string } | null;
  status?: string;
}

interface FacebookSdk {
  init(options: { appId: string; autoLogAppEvents: boolean; xfbml: boolean; version: string }): void;
  login(callback: (response: LoginResponse) => void, options: SignupLoginOptions): void;
}

declare global {
  interface Window {
    FB?: FacebookSdk;
    fbAsyncInit?: () => void;
  }
}

let loading: Promise<void> | null = null;

/** Loads and initialises the SDK once (Meta's script calls `fbAsyncInit` when ready); a failed load is tried again on the next call. */
export function loadFacebookSdk(appId: string): Promise<void> {
  if (loading) return loading;
  loading = new Promise<void>((resolve, reject) => {
    window.fbAsyncInit = () => {
      window.FB?.init({ appId, autoLogAppEvents: true, xfbml: true, version: facebookSdkVersion });
      resolve();
    };
    const script = document.createElement('script');
    script.src = facebookSdkUrl;
    script.async = true;
    script.defer = true;
    script.crossOrigin = 'anonymous';
    script.onerror = () => {
      script.remove();
      reject(new Error('The Facebook SDK did not load'));
    };
    document.body.appendChild(script);
  });
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** Embedded Signup's launch options: Meta's v4 extras, plus the WhatsApp Business app onboarding (coexistence) when asked for. */
export function signupLoginOptions(configId: string, coexistence: boolean): SignupLoginOptions {
  return {
    config_id: configId,
    response_type: 'code',
    override_default_response_type: true,
    extras: { setup: {}, sessionInfoVersion: '3', ...(coexistence ? { featureType: 'whatsapp_business_app_onboarding' as const } : {}) },
  };
}

/** Opens Meta's window (the SDK loaded); answers the exchangeable code, or null when the window closed without one. */
export function launchSignup(configId: string, coexistence: boolean): Promise<string | null> {
  return new Promise((resolve, reject) => {
    if (!window.FB) return reject(new Error('The Facebook SDK loaded without FB'));
    window.FB.login((response) => resolve(response.authResponse?.code || null), signupLoginOptions(configId, coexistence));
  });
}
