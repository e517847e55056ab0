/**
 * WhatsApp (API oficial) in the connection screens: the form's four credentials checked by the
 * contract's schema (the API's own texts), the server's field messages on their fields, the
 * secrets as password inputs that start blank on edit with their mask ('deixe em branco para
 * manter'), and the list and view showing the number, its quality and no QR action.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#contracts/entities.ts';
import { cloudCredentialTexts, type Service } from '#contracts/services.ts';
import { api, ApiError } from '#web/lib/api-client.ts';
import { sessionStore } from '#web/lib/auth.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { cloudQualityLabels } from './cloud-number.tsx';
import { ServiceFormModal, ServiceViewModal } from './service-modals.tsx';
import { ServicesTable } from './services-table.tsx';

const slow = { timeout: 5000 };
const admin = { id: 'u0', name: 'Carla Dona', isAdmin: true } as User;
const at = '2026-11-27T09:00:00.000Z';
const credentials = {
  phoneNumberId: '106540352242922',
  wabaId: '102290129340398',
  accessToken: 'EAAGm0PX4ZCpsBAsystemusertoken1234',
  appSecret: '0123456789abcdef0123456789abcdef',
};
const cloud = (fields: Partial<Service> = {}): Service => ({
  id: 'S9',
  name: 'WhatsApp oficial',
  type: 'whatsapp_cloud',
  status: 'connected',
  connected: true,
  data: { qrCode: null, pairingCode: null },
  internalData: { token: '••••••••1234', appSecret: '••••••••cdef', phoneNumberId: credentials.phoneNumberId, wabaId: credentials.wabaId },
  displayPhoneNumber: '+55 11 3000-1000',
  verifiedName: 'Doceria da Ana',
  qualityRating: 'GREEN',
  statusReason: null,
  defaultDepartmentId: null,
  readReceipts: true,
  createdAt: at,
  updatedAt: at,
  ...fields,
});

const input = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: RegExp, value: string) => fireEvent.change(input(label), { target: { value } });
const errorOf = (label: RegExp) => {
  const id = input(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

beforeEach(() => sessionStore.set({ accessToken: 't', user: admin }));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

async function openCreateWithCloud() {
  renderWithProviders(<ServiceFormModal onClose={() => {}} onSaved={() => {}} />);
  fireEvent.change(await screen.findByLabelText(/^Nome/, undefined, slow), { target: { value: 'WhatsApp oficial' } });
  fireEvent.change(screen.getByLabelText(/^Tipo/), { target: { value: 'whatsapp_cloud' } });
  await screen.findByLabelText(/^ID do número de telefone/);
}

describe('the connection form for WhatsApp (API oficial)', () => {
  it('asks for the four credentials with the API’s messages, secrets hidden', async () => {
    const post = vi.spyOn(api, 'post');
    await openCreateWithCloud();
    expect(input(/^Token de acesso \(usuário do sistema\)/).type).toBe('password');
    expect(input(/^Chave secreta do app/).type).toBe('password');
    expect(input(/^ID da conta do WhatsApp Business \(WABA\)/).type).toBe('text');
    // No Telegram token, and read receipts are offered (Meta takes them too).
    expect(screen.queryByLabelText(/Token do Telegram/)).toBeNull();
    expect(screen.getByRole('checkbox', { name: /confirmação de leitura/ })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    await waitFor(() => expect(errorOf(/^ID do número de telefone/)).toBe(cloudCredentialTexts.phoneNumberIdRequired), slow);
    expect(errorOf(/^ID da conta do WhatsApp Business/)).toBe(cloudCredentialTexts.wabaIdRequired);
    expect(errorOf(/^Token de acesso/)).toBe(cloudCredentialTexts.accessTokenRequired);
    expect(errorOf(/^Chave secreta do app/)).toBe(cloudCredentialTexts.appSecretRequired);

    type(/^ID do número de telefone/, '+55 11 3000-1000');
    type(/^ID da conta do WhatsApp Business/, 'waba');
    type(/^Token de acesso/, 'curto');
    type(/^Chave secreta do app/, 'segredo');
    await waitFor(() => expect(errorOf(/^ID do número de telefone/)).toBe(cloudCredentialTexts.phoneNumberIdInvalid), slow);
    expect(errorOf(/^ID da conta do WhatsApp Business/)).toBe(cloudCredentialTexts.wabaIdInvalid);
    expect(errorOf(/^Token de acesso/)).toBe(cloudCredentialTexts.accessTokenInvalid);
    expect(errorOf(/^Chave secreta do app/)).toBe(cloudCredentialTexts.appSecretInvalid);
    expect(post).not.toHaveBeenCalled();
  });

  it('sends them, and puts Meta’s refusal on the field it names', async () => {
    const post = vi.spyOn(api, 'post').mockRejectedValue(
      new ApiError(400, {
        error: 'Invalid WhatsApp Cloud API credentials',
        details: [{ path: 'accessToken', message: cloudCredentialTexts.accessTokenRejected }],
      }),
    );
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await openCreateWithCloud();
    type(/^ID do número de telefone/, ` ${credentials.phoneNumberId} `);
    type(/^ID da conta do WhatsApp Business/, credentials.wabaId);
    type(/^Token de acesso/, credentials.accessToken);
    type(/^Chave secreta do app/, credentials.appSecret);
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    await waitFor(() => expect(errorOf(/^Token de acesso/)).toBe(cloudCredentialTexts.accessTokenRejected), slow);
    expect(post).toHaveBeenCalledWith('/services', {
      name: 'WhatsApp oficial',
      type: 'whatsapp_cloud',
      ...credentials,
      readReceipts: true,
      defaultDepartmentId: null,
    });
    expect(errorOf(/^Chave secreta do app/)).not.toBe(cloudCredentialTexts.accessTokenRejected);
  });

  it('asks for the two-step verification PIN, optional, to register a number not yet on the Cloud API, and shows Meta’s refusal on it', async () => {
    const post = vi.spyOn(api, 'post').mockRejectedValue(
      new ApiError(400, {
        error: 'Invalid WhatsApp Cloud API credentials',
        details: [{ path: 'registrationPin', message: cloudCredentialTexts.registrationPinRequired }],
      }),
    );
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await openCreateWithCloud();
    const pin = input(/^PIN da confirmação em duas etapas/);
    expect(pin.type).toBe('password');
    expect(pin.required).toBe(false);
    expect(document.getElementById(pin.getAttribute('aria-describedby')?.split(' ')[0] ?? '')?.textContent ?? '').toBeTruthy();
    type(/^ID do número de telefone/, credentials.phoneNumberId);
    type(/^ID da conta do WhatsApp Business/, credentials.wabaId);
    type(/^Token de acesso/, credentials.accessToken);
    type(/^Chave secreta do app/, credentials.appSecret);
    // Blank: not sent, and the server asks for it when the number needs registering.
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    await waitFor(() => expect(errorOf(/^PIN da confirmação/)).toBe(cloudCredentialTexts.registrationPinRequired), slow);
    expect((post.mock.calls[0]![1] as { registrationPin?: string }).registrationPin).toBeUndefined();

    type(/^PIN da confirmação/, '12a');
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    await waitFor(() => expect(errorOf(/^PIN da confirmação/)).toBe(cloudCredentialTexts.registrationPinInvalid), slow);
    expect(post).toHaveBeenCalledTimes(1);

    type(/^PIN da confirmação/, '246810');
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2), slow);
    expect(post.mock.calls[1]![1]).toMatchObject({ ...credentials, registrationPin: '246810' });
  });

  it('on edit shows the ids, the secrets masked and blank, and keeps what is left blank', async () => {
    vi.spyOn(api, 'get').mockResolvedValue(cloud());
    const put = vi.spyOn(api, 'put').mockResolvedValue(cloud());
    const onSaved = vi.fn();
    renderWithProviders(<ServiceFormModal id="S9" onClose={() => {}} onSaved={onSaved} />);
    await screen.findByLabelText(/^ID do número de telefone/, undefined, slow);
    expect((screen.getByLabelText(/^Tipo/) as HTMLSelectElement).value).toBe('whatsapp_cloud');
    expect(input(/^ID do número de telefone/).value).toBe(credentials.phoneNumberId);
    expect(input(/^ID da conta do WhatsApp Business/).value).toBe(credentials.wabaId);
    const token = input(/^Token de acesso/);
    const secret = input(/^Chave secreta do app/);
    expect([token.value, token.placeholder, token.required]).toEqual(['', '••••••••1234', false]);
    expect([secret.value, secret.placeholder, secret.required]).toEqual(['', '••••••••cdef', false]);
    expect(document.getElementById(token.getAttribute('aria-describedby')!)?.textContent).toContain('Deixe em branco para manter o token atual.');
    expect(document.getElementById(secret.getAttribute('aria-describedby')!)?.textContent).toContain('Deixe em branco para manter a chave atual.');

    // A name change alone sends no credential (nothing for Meta to check again).
    type(/^Nome/, 'WhatsApp da loja');
    fireEvent.click(screen.getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1), slow);
    expect(put).toHaveBeenLastCalledWith('/services/S9', { name: 'WhatsApp da loja', readReceipts: true });

    // A new token goes alone; the ids and the app secret stay.
    type(/^Token de acesso/, 'EAAGnovotokendeacesso98765');
    fireEvent.click(screen.getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(2), slow);
    expect(put).toHaveBeenLastCalledWith('/services/S9', { name: 'WhatsApp da loja', readReceipts: true, accessToken: 'EAAGnovotokendeacesso98765' });
  });

  it('on edit shows the webhook to paste into the Meta app; on create says where it will be', async () => {
    vi.spyOn(api, 'get').mockResolvedValue(cloud({ webhook: { path: '/api/webhooks/whatsapp-cloud/S9', verifyToken: 'vt-4f9c2a' } }));
    const view = renderWithProviders(<ServiceFormModal id="S9" onClose={() => {}} onSaved={() => {}} />);
    expect((await screen.findByLabelText('URL de retorno', undefined, slow)) as HTMLInputElement).toHaveProperty(
      'value',
      `${window.location.origin}/api/webhooks/whatsapp-cloud/S9`,
    );
    expect(input(/^Token de verificação/).value).toBe('vt-4f9c2a');
    expect(input(/^Token de verificação/).readOnly).toBe(true);
    view.unmount();
    await openCreateWithCloud();
    expect(screen.queryByLabelText('URL de retorno')).toBeNull();
    expect(screen.getByText(/Depois de criar a conexão, abra/)).toBeTruthy();
  });

  it('on edit still needs the ids it shows', async () => {
    vi.spyOn(api, 'get').mockResolvedValue(cloud());
    const put = vi.spyOn(api, 'put');
    renderWithProviders(<ServiceFormModal id="S9" onClose={() => {}} onSaved={() => {}} />);
    await screen.findByLabelText(/^ID do número de telefone/, undefined, slow);
    type(/^ID do número de telefone/, '');
    fireEvent.click(screen.getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(errorOf(/^ID do número de telefone/)).toBe(cloudCredentialTexts.phoneNumberIdRequired), slow);
    expect(errorOf(/^Token de acesso/)).toContain('Deixe em branco');
    expect(put).not.toHaveBeenCalled();
  });
});

describe('a WhatsApp (API oficial) connection shown', () => {
  it('in the list: its number, quality and no QR action, beside a QR one that has it', async () => {
    const qr = cloud({
      id: 'S1',
      name: 'Zap da loja',
      type: 'whatsapp',
      internalData: {},
      displayPhoneNumber: undefined,
      verifiedName: undefined,
      qualityRating: undefined,
    });
    vi.spyOn(api, 'get').mockResolvedValue({ data: [qr, cloud({ qualityRating: 'YELLOW' })], totalCount: 2 });
    renderWithProviders(<ServicesTable />, { route: '/services' });
    const rows = await screen.findAllByTestId('service-row', undefined, slow);
    const [zap, official] = rows.map((row) => within(row));
    expect(official!.getByText('WhatsApp (API oficial)')).toBeTruthy();
    expect(official!.getByText('Doceria da Ana · +55 11 3000-1000')).toBeTruthy();
    expect(official!.getByText('Qualidade: Média')).toBeTruthy();
    expect(official!.queryByRole('link', { name: /Ler código QR/ })).toBeNull();
    expect(official!.getByRole('link', { name: 'Editar WhatsApp oficial' })).toBeTruthy();
    expect(zap!.getByRole('link', { name: 'Ler código QR de Zap da loja' })).toBeTruthy();
    expect(zap!.queryByText(/Qualidade/)).toBeNull();
  });

  it('in the view: verified name, number, quality and ids, never a secret', async () => {
    vi.spyOn(api, 'get').mockResolvedValue(cloud({ qualityRating: 'RED' }));
    renderWithProviders(<ServiceViewModal id="S9" onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', undefined, slow);
    await within(dialog).findByText('Doceria da Ana', undefined, slow);
    expect(within(dialog).getByText('+55 11 3000-1000')).toBeTruthy();
    expect(within(dialog).getByText('Qualidade: Baixa')).toBeTruthy();
    expect(within(dialog).getByText(credentials.phoneNumberId)).toBeTruthy();
    expect(within(dialog).getByText(credentials.wabaId)).toBeTruthy();
    expect(dialog.textContent).not.toContain('••••');
  });

  it('names Meta’s ratings in pt-BR', () => {
    expect(cloudQualityLabels).toEqual({ GREEN: 'Alta', YELLOW: 'Média', RED: 'Baixa', UNKNOWN: 'Sem avaliação' });
  });
});
