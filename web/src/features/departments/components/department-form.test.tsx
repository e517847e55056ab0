import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '#web/testing/render.tsx';
import { DepartmentForm } from './department-modal.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const users = {
  data: [
    { id: 'u1', name: 'Ana Souza', email: 'ana@example.com', archivedAt: null },
    { id: 'u2', name: 'Bruno Lima', email: 'bruno@example.com', archivedAt: null },
    { id: 'u3', name: 'Carla Arquivada', email: 'carla@example.com', archivedAt: '2026-01-01T00:00:00.000Z' },
  ],
  totalCount: 3,
};

/** Answers GET /users with the team and the department's save with `save`. */
function mockApi(save: () => Response) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    if (url.includes('/users')) return json(users);
    if (url.includes('/departments') && init?.method !== 'GET') return save();
    return json({ error: 'Not found' }, 404);
  });
}

const saves = (fetchMock: ReturnType<typeof mockApi>) => fetchMock.mock.calls.filter(([url]) => String(url).includes('/departments'));

describe('the department form', () => {
  it('asks for the name and sends nothing while it is blank', async () => {
    const fetchMock = mockApi(() => json({}));
    renderWithProviders(<DepartmentForm onClose={() => {}} onSaved={() => {}} />);
    await screen.findByText('Ana Souza');
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    expect(await screen.findByText('Campo obrigatório')).toBeTruthy();
    expect(screen.getByLabelText(/Nome/).getAttribute('aria-invalid')).toBe('true');
    expect(saves(fetchMock)).toHaveLength(0);
  });

  it('offers the active users, and creates with the name and the chosen ones', async () => {
    const onSaved = vi.fn();
    const fetchMock = mockApi(() => json({ id: 'd1', name: 'Financeiro', userIds: ['u2'] }, 201));
    renderWithProviders(<DepartmentForm onClose={() => {}} onSaved={onSaved} />);
    await screen.findByText('Ana Souza');
    expect(screen.queryByText('Carla Arquivada')).toBeNull();
    fireEvent.change(screen.getByLabelText(/Nome/), { target: { value: '  Financeiro ' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Bruno Lima/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const [url, init] = saves(fetchMock)[0]!;
    expect(String(url)).toMatch(/\/departments$/);
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ name: 'Financeiro', userIds: ['u2'] });
  });

  it('renames with the members kept, and shows the server refusing a repeated name on the field', async () => {
    const fetchMock = mockApi(() => json({ error: 'Invalid params', details: [{ path: 'name', message: 'Já existe um departamento com este nome' }] }, 400));
    const department = { id: 'd1', name: 'Vendas', userIds: ['u1', 'u3'], archivedAt: null, createdAt: '', updatedAt: '' };
    renderWithProviders(<DepartmentForm department={department} onClose={() => {}} onSaved={() => {}} />);
    await screen.findByText('Ana Souza');
    // An archived user already in it stays listed (and checked) so saving does not drop them silently.
    expect((screen.getByRole('checkbox', { name: /Carla Arquivada/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(screen.getByLabelText(/Nome/), { target: { value: 'Suporte' } });
    fireEvent.click(screen.getByRole('button', { name: 'Atualizar' }));
    expect(await screen.findByText('Já existe um departamento com este nome')).toBeTruthy();
    const [url, init] = saves(fetchMock)[0]!;
    expect(String(url)).toMatch(/\/departments\/d1$/);
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(String(init?.body))).toEqual({ name: 'Suporte', userIds: ['u1', 'u3'] });
  });
});
