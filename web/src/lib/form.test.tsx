import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { requiredString } from '#contracts/fields.ts';
import { CheckboxField, InputField } from '#web/components/ui/field.tsx';
import { useSchemaForm } from './form.ts';

afterEach(cleanup);

const schema = z.object({ name: requiredString(20), email: z.string(), isAdmin: z.boolean() });

function Probe({ onValid, server }: { onValid: (data: z.infer<typeof schema>) => void; server?: { path: string; message: string }[] }) {
  const form = useSchemaForm(schema, { name: 'Ana', email: '', isAdmin: true }, 'probe');
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((data) => {
        onValid(data);
        if (server) form.setServerErrors(server);
      })}
    >
      <InputField label="Nome" {...form.field('name')} />
      <InputField label="Email" {...form.field('email')} />
      <CheckboxField label="Administrador" disabled {...form.field('isAdmin')} />
      <button type="submit">Salvar</button>
    </form>
  );
}

describe('forms on the contracts’ schemas', () => {
  it('submits the values of disabled fields as they were', async () => {
    const onValid = vi.fn();
    render(<Probe onValid={onValid} />);
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(onValid).toHaveBeenCalledWith({ name: 'Ana', email: '', isAdmin: true }));
  });

  it('puts the server’s field messages on the fields they name, the first one each', async () => {
    render(
      <Probe
        onValid={() => {}}
        server={[
          { path: 'email.address', message: 'Email já existe' },
          { path: 'email', message: 'outra' },
          { path: 'unknown', message: 'ignorada' },
        ]}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Email já existe')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText('outra')).toBeNull();
    expect(screen.queryByText('ignorada')).toBeNull();
  });

  it('validates on submit, then live, and focuses the first invalid field', async () => {
    render(<Probe onValid={() => {}} />);
    const name = screen.getByLabelText('Nome');
    fireEvent.change(name, { target: { value: ' ' } });
    expect(screen.queryByText('Campo obrigatório')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Campo obrigatório')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(name));
    fireEvent.change(name, { target: { value: 'Bia' } });
    await waitFor(() => expect(screen.queryByText('Campo obrigatório')).toBeNull());
  });
});
