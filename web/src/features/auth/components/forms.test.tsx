import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '#web/testing/render.tsx';
import { ForgotPasswordForm } from './forgot-password-form.tsx';
import { LoginForm } from './login-form.tsx';
import { RegisterForm } from './register-form.tsx';
import { ResetPasswordForm } from './reset-password-form.tsx';
import { VerifyEmailForm } from './verify-email-form.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function submit(name: RegExp | string) {
  fireEvent.click(screen.getByRole('button', { name }));
}

describe('form validation with the exact pt-BR texts of docs/product.md#validation', () => {
  it('login: email and password are required, and nothing is sent', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    renderWithProviders(<LoginForm />);
    submit('Entrar');
    expect(await screen.findAllByText('Campo obrigatório')).toHaveLength(2);
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('E-mail')));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('register: name, email and password required, and the terms checkbox', async () => {
    renderWithProviders(<RegisterForm />);
    submit('Criar conta grátis');
    expect(await screen.findAllByText('Campo obrigatório')).toHaveLength(3);
    expect(screen.getByText('Você precisa aceitar os termos para continuar')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Nome'), { target: { value: 'Ana' } });
    fireEvent.click(screen.getByRole('checkbox'));
    await waitFor(() => expect(screen.getAllByText('Campo obrigatório')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByText('Você precisa aceitar os termos para continuar')).toBeNull());
  });

  it('forgot password: the email must look like one', async () => {
    renderWithProviders(<ForgotPasswordForm />);
    submit('Enviar link de recuperação');
    expect(await screen.findByText('Campo obrigatório')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'nao-e-email' } });
    expect(await screen.findByText('Endereço de email inválido')).toBeTruthy();
  });

  it('reset password: at least 6 characters, and both passwords equal', async () => {
    renderWithProviders(<ResetPasswordForm email="a@b.com" verifyCode="123456" />);
    fireEvent.change(screen.getByLabelText('Nova senha'), { target: { value: '123' } });
    submit('Redefinir senha');
    expect(await screen.findByText('A senha deve ter pelo menos 6 caracteres')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Nova senha'), { target: { value: '123456' } });
    fireEvent.change(screen.getByLabelText('Confirme a nova senha'), { target: { value: '654321' } });
    expect(await screen.findByText('As senhas devem ser iguais')).toBeTruthy();
  });

  it('verify email: exactly 6 digits, keeping only digits as typed', async () => {
    renderWithProviders(<VerifyEmailForm userId="u1" />);
    const input = screen.getByLabelText('Código de verificação') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '12a3' } });
    expect(input.value).toBe('123');
    submit('Confirmar e-mail');
    expect(await screen.findByText('O código deve conter 6 dígitos')).toBeTruthy();
  });

  it('login: several accounts for the e-mail open the choice modal, and Logar retries with that account', async () => {
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        new Response(
          JSON.stringify({
            users: [
              { id: 'u1', name: 'Rita', email: 'rita@example.com', accountId: 'a1', account: { id: 'a1', name: 'Alfa Modas' } },
              { id: 'u2', name: 'Rita', email: 'rita@example.com', accountId: 'a2', account: { id: 'a2', name: 'Beta Calçados' } },
            ],
          }),
          { status: 200 },
        ),
      )
      .mockResolvedValueOnce(new Response(JSON.stringify({ accessToken: 't', user: { id: 'u2', accountId: 'a2', name: 'Rita' } }), { status: 200 }));
    renderWithProviders(<LoginForm />);
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'Rita@Example.com' } });
    fireEvent.change(screen.getByLabelText('Senha'), { target: { value: 'segredo' } });
    submit('Entrar');
    const dialog = await screen.findByRole('dialog', { name: 'Em qual conta deseja entrar' });
    expect(dialog.textContent).toContain('Alfa Modas');
    expect(dialog.textContent).toContain('Beta Calçados');
    fireEvent.click(screen.getAllByRole('button', { name: 'Logar' })[1]!);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(JSON.parse(String(fetchMock.mock.calls[1]![1]!.body))).toEqual({ email: 'rita@example.com', password: 'segredo', accountId: 'a2' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    localStorage.clear();
  });
});
