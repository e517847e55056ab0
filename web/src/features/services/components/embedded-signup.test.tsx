/**
 * 'Conectar com a Meta' in the connection form (ADR-0217): offered for a new
 * WhatsApp (API oficial) connection only when the server says the operator's Meta app is set; Meta's
 * session messages read from Meta's origins only; the code and the ids sent to the server once both
 * came; a cancel or the server's refusal shown in pt-BR. The SDK here is a stand-in put on `window`
 * as Meta's script would (the browser test loads a fake script over the network instead).
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { embeddedSignupTexts } from '#contracts/embedded-signup.ts';
import type { User } from '#contracts/entities.ts';
import { api, ApiError } from '#web/lib/api-client.ts';
import { sessionStore } from '#web/lib/auth.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { signupLoginOptions } from '../meta/facebook-sdk.ts';
import { isMetaOrigin, readSignupMessage } from '../meta/signup-message.ts';
import { sessionInfoWaitMs } from './embedded-signup.tsx';
import { ServiceFormModal } from './service-modals.tsx';

const slow = { timeout: 5000 };
const admin = { id: 'u0', name: 'Carla Dona', isAdmin: true } as User;
const META = 'https://www.facebook.com';
const finish = (data: Record<string, string>, event = 'FINISH') => JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event, data });

describe('Meta’s session messages', () => {
  it('are read from facebook.com over https only', () => {
    for (const origin of [META, 'https://web.facebook.com', 'https://facebook.com', 'https://staticxx.facebook.com']) expect(isMetaOrigin(origin)).toBe(true);
    for (const origin of [
      'https://evilfacebook.com',
      'http://www.facebook.com',
      'https://www.facebook.com.evil.example',
      'https://www.facebook.com:8443',
      'null',
      '',
    ])
      expect(isMetaOrigin(origin)).toBe(false);
    expect(readSignupMessage('https://evilfacebook.com', finish({ waba_id: '1', phone_number_id: '2' }))).toBeNull();
  });

  it('tell a finish (with or without the number), a cancel at a step and a reported error apart', () => {
    expect(readSignupMessage(META, finish({ waba_id: '524126980791429', phone_number_id: '106540352242922', business_id: '1' }))).toEqual({
      kind: 'finish',
      wabaId: '524126980791429',
      phoneNumberId: '106540352242922',
      coexistence: false,
    });
    expect(readSignupMessage(META, finish({ waba_id: '524126980791429' }, 'FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING'))).toEqual({
      kind: 'finish',
      wabaId: '524126980791429',
      phoneNumberId: null,
      coexistence: true,
    });
    expect(readSignupMessage(META, finish({ waba_id: '5' }, 'FINISH_ONLY_WABA'))).toEqual({ kind: 'no-number' });
    expect(readSignupMessage(META, finish({ current_step: 'PHONE_NUMBER_SETUP' }, 'CANCEL'))).toEqual({ kind: 'cancel', step: 'PHONE_NUMBER_SETUP' });
    expect(readSignupMessage(META, finish({ error_message: 'Nome inválido', error_code: '524126', session_id: 'f3' }, 'CANCEL'))).toEqual({
      kind: 'error',
      message: 'Nome inválido',
      code: '524126',
    });
    // A FINISH without the number, other types, other events and what is not JSON say nothing.
    expect(readSignupMessage(META, finish({ waba_id: '5' }))).toBeNull();
    expect(readSignupMessage(META, JSON.stringify({ type: 'OTHER', event: 'FINISH', data: {} }))).toBeNull();
    expect(readSignupMessage(META, 'code=abc')).toBeNull();
  });

  it('launch options: Meta’s v4 extras, the WhatsApp Business app onboarding only when asked for', () => {
    expect(signupLoginOptions('987654321012345', false)).toEqual({
      config_id: '987654321012345',
      response_type: 'code',
      override_default_response_type: true,
      extras: { setup: {}, sessionInfoVersion: '3' },
    });
    expect(signupLoginOptions('987654321012345', true).extras).toEqual({ setup: {}, sessionInfoVersion: '3', featureType: 'whatsapp_business_app_onboarding' });
  });
});

/** Meta's SDK as its script leaves it: FB on window, then fbAsyncInit called; `login` answers as the test says. */
function fakeSdk(login: (callback: (response: { authResponse?: { code: string } | null }) => void, options: unknown) => void) {
  const init = vi.fn();
  window.FB = { init, login: vi.fn(login) } as unknown as NonNullable<Window['FB']>;
  return { init, login: window.FB.login as ReturnType<typeof vi.fn> };
}
const post = (origin: string, data: string) => window.dispatchEvent(new MessageEvent('message', { origin, data }));

async function openCreate(config: unknown) {
  const get = vi.spyOn(api, 'get').mockImplementation(async (path: string) => {
    if (path === '/whatsapp-cloud/embedded-signup') return config;
    throw new Error(`unexpected GET ${path}`);
  });
  const onSaved = vi.fn();
  renderWithProviders(<ServiceFormModal onClose={() => {}} onSaved={onSaved} />);
  fireEvent.change(await screen.findByLabelText(/^Nome/, undefined, slow), { target: { value: 'WhatsApp oficial' } });
  fireEvent.change(screen.getByLabelText(/^Tipo/), { target: { value: 'whatsapp_cloud' } });
  await screen.findByLabelText(/^ID do número de telefone/);
  return { get, onSaved };
}

/** The SDK's script tag was added: play Meta's script finishing its load. */
async function sdkLoaded() {
  await waitFor(() => expect(document.querySelector('script[src="https://connect.facebook.net/en_US/sdk.js"]')).not.toBeNull());
  window.fbAsyncInit?.();
}

beforeEach(() => sessionStore.set({ accessToken: 't', user: admin }));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  delete window.FB;
});

describe('the connection form with a Meta app configured', () => {
  it('offers nothing new when the server says none is configured', async () => {
    const { get } = await openCreate({ available: false });
    await waitFor(() => expect(get).toHaveBeenCalledWith('/whatsapp-cloud/embedded-signup', expect.anything()));
    expect(screen.queryByRole('button', { name: embeddedSignupTexts.connect })).toBeNull();
    expect(screen.getByLabelText(/^Token de acesso/)).toBeTruthy();
  });

  it('connects with the code and Meta’s ids (a look-alike message from elsewhere ignored), axe clean', async () => {
    const sent: unknown[] = [];
    vi.spyOn(api, 'post').mockImplementation(async (path: string, body?: unknown) => {
      sent.push({ path, body });
      return { id: 'S1' };
    });
    const { onSaved } = await openCreate({ available: true, appId: '1234567890123456', configId: '987654321012345' });
    const section = (await screen.findByRole('heading', { name: embeddedSignupTexts.connect }, slow)).closest('section')!;
    const result = await axe.run(section, { rules: { 'color-contrast': { enabled: false } } });
    expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    const sdk = fakeSdk((callback) => {
      post(META, finish({ waba_id: '524126980791429', phone_number_id: '106540352242922' }));
      // Any page may post the same words; read, it would replace Meta's ids.
      post('https://evil.example', finish({ waba_id: '999999999999999', phone_number_id: '888888888888888' }));
      callback({ authResponse: { code: 'AQcode-from-meta' } });
    });
    fireEvent.click(within(section).getByRole('checkbox', { name: embeddedSignupTexts.coexistence }));
    fireEvent.click(within(section).getByRole('checkbox', { name: embeddedSignupTexts.coexistence }));
    fireEvent.click(within(section).getByRole('button', { name: embeddedSignupTexts.connect }));
    await sdkLoaded();
    await waitFor(() => expect(onSaved).toHaveBeenCalled(), slow);
    expect(sdk.init).toHaveBeenCalledWith({ appId: '1234567890123456', autoLogAppEvents: true, xfbml: true, version: 'v23.0' });
    expect(sdk.login.mock.calls[0]![1]).toEqual(signupLoginOptions('987654321012345', false));
    expect(sent).toEqual([
      {
        path: '/whatsapp-cloud/embedded-signup',
        body: {
          name: 'WhatsApp oficial',
          code: 'AQcode-from-meta',
          wabaId: '524126980791429',
          phoneNumberId: '106540352242922',
          coexistence: false,
          defaultDepartmentId: null,
          readReceipts: true,
        },
      },
    ]);
  });

  it('shows where the admin left Meta’s window, and the server’s refusal of the code, in pt-BR', async () => {
    const refused = new ApiError(400, {
      error: 'Bad Request',
      message: 'Invalid WhatsApp Cloud API credentials',
      details: [{ path: 'code', message: embeddedSignupTexts.codeRefused }],
    });
    const postSpy = vi.spyOn(api, 'post').mockRejectedValue(refused);
    await openCreate({ available: true, appId: '1234567890123456', configId: '987654321012345' });
    const button = await screen.findByRole('button', { name: embeddedSignupTexts.connect }, slow);
    fakeSdk((callback) => {
      post(META, finish({ current_step: 'PHONE_NUMBER_SETUP' }, 'CANCEL'));
      callback({ authResponse: null });
    });
    fireEvent.click(button);
    await sdkLoaded();
    expect((await screen.findByRole('alert', undefined, slow)).textContent).toBe(embeddedSignupTexts.cancelled('PHONE_NUMBER_SETUP'));
    expect(postSpy).not.toHaveBeenCalled();

    fakeSdk((callback) => {
      post(META, finish({ waba_id: '524126980791429' }, 'FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING'));
      callback({ authResponse: { code: 'AQused' } });
    });
    fireEvent.click(screen.getByRole('checkbox', { name: embeddedSignupTexts.coexistence }));
    fireEvent.click(screen.getByRole('button', { name: embeddedSignupTexts.connect }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(embeddedSignupTexts.codeRefused), slow);
    expect(postSpy.mock.calls[0]![1]).toMatchObject({ code: 'AQused', wabaId: '524126980791429', coexistence: true });
    expect(postSpy.mock.calls[0]![1]).not.toHaveProperty('phoneNumberId');
  });

  it('gives up when the code came but Meta never said which account was chosen', async () => {
    const postSpy = vi.spyOn(api, 'post');
    await openCreate({ available: true, appId: '1234567890123456', configId: '987654321012345' });
    const button = await screen.findByRole('button', { name: embeddedSignupTexts.connect }, slow);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fakeSdk((callback) => callback({ authResponse: { code: 'AQcode-alone' } }));
      fireEvent.click(button);
      await sdkLoaded();
      await waitFor(() => expect(screen.getByRole('button', { name: embeddedSignupTexts.waiting })).toBeTruthy());
      vi.advanceTimersByTime(sessionInfoWaitMs);
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(embeddedSignupTexts.noSessionInfo), slow);
      // A message after the run was given up connects nothing.
      await act(async () => {
        post(META, finish({ waba_id: '524126980791429', phone_number_id: '106540352242922' }));
      });
      expect(postSpy).not.toHaveBeenCalled();
      expect(screen.getByRole('alert').textContent).toBe(embeddedSignupTexts.noSessionInfo);
    } finally {
      vi.useRealTimers();
    }
  });
});
