/**
 * 'Automações' and 'Menu de atendimento' over the shared runtime: an account that never saved its
 * automations reads the defaults (all switched off); an admin saves them whole; a connection has no
 * menu until one is saved; departments and people named must exist and be active; a connection of
 * another account answers 404; members read and cannot write; nothing refused is stored.
 */
import { describe, expect, it } from 'vitest';
import { automationTexts, defaultAutomationSettings, menuTexts, unknownVariableText } from '#contracts/automations.ts';
import { errorTexts } from '#contracts/errors.ts';
import { call } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';

const newDepartment = async (token: string, name: string) => (await call('POST', '/departments', { token, body: { name } })).body.id as string;

describe('automations', () => {
  it('reads the defaults until an admin saves them, then the saved ones', async () => {
    const team = await inboxTeam();
    const first = await call('GET', '/automations', { token: team.member.token });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ...defaultAutomationSettings, saved: false, updatedAt: null });

    const departmentId = await newDepartment(team.owner.token, 'Plantão');
    const settings = {
      ...defaultAutomationSettings,
      greeting: { enabled: true, text: 'Oi, {{primeiro_nome}}!' },
      waitingTooLong: { enabled: true, minutes: 45, departmentId },
      inactivity: { enabled: true, closeAfterHours: 2, warnBeforeMinutes: 30, warningText: 'Vamos encerrar em breve.' },
      roundRobin: { enabled: true, maxOpenPerAgent: 3 },
      reopenToLastAgent: false,
    };
    const saved = await call('PUT', '/automations', { token: team.admin.token, body: settings });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ...settings, saved: true, updatedAt: expect.any(String) });
    const again = await call('GET', '/automations', { token: team.member.token });
    expect(again.body).toEqual(saved.body);
  });

  it('refuses bad texts, limits and departments with field texts, and a member saving', async () => {
    const team = await inboxTeam();
    const bad = await call('PUT', '/automations', {
      token: team.admin.token,
      body: {
        ...defaultAutomationSettings,
        greeting: { enabled: true, text: 'Olá {{nome}}' },
        noAnswer: { enabled: true, minutes: 0, text: 'Já vamos responder.' },
        inactivity: { enabled: true, closeAfterHours: 1, warnBeforeMinutes: 60, warningText: 'Vamos encerrar.' },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(errorTexts.invalidParams);
    expect(bad.body.details).toEqual(
      expect.arrayContaining([
        { path: 'greeting.text', message: unknownVariableText('nome') },
        { path: 'noAnswer.minutes', message: 'Use pelo menos 1 minuto' },
      ]),
    );

    const archived = await newDepartment(team.owner.token, 'Antigo');
    await call('POST', `/departments/${archived}/archive`, { token: team.owner.token, body: { archive: true } });
    for (const departmentId of [archived, '01JZZZZZZZZZZZZZZZZZZZZZZZ']) {
      const refused = await call('PUT', '/automations', {
        token: team.admin.token,
        body: { ...defaultAutomationSettings, waitingTooLong: { enabled: true, minutes: 30, departmentId } },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual([{ path: 'waitingTooLong.departmentId', message: automationTexts.departmentMissing }]);
    }
    // Switched off, the department is not checked (nor required).
    const off = await call('PUT', '/automations', {
      token: team.admin.token,
      body: { ...defaultAutomationSettings, waitingTooLong: { enabled: false, minutes: 30, departmentId: archived } },
    });
    expect(off.status).toBe(200);

    const member = await call('PUT', '/automations', { token: team.member.token, body: defaultAutomationSettings });
    expect(member.status).toBe(403);
    const after = await call('GET', '/automations', { token: team.member.token });
    expect(after.body.waitingTooLong).toEqual({ enabled: false, minutes: 30, departmentId: archived });
  });
});

describe('a connection’s menu', () => {
  it('is null until saved, then the saved one; 404 for another account’s connection', async () => {
    const team = await inboxTeam();
    const path = `/services/${team.service.id}/menu`;
    expect((await call('GET', path, { token: team.member.token })).body).toEqual({ menu: null, updatedAt: null });

    const financeiro = await newDepartment(team.owner.token, 'Financeiro');
    const menu = {
      enabled: true,
      menus: [
        {
          id: 'inicio',
          text: 'Olá, {{primeiro_nome}}! Escolha:',
          options: [
            { key: '1', label: 'Financeiro', action: { kind: 'submenu', menuId: 'financeiro' } },
            { key: '2', label: 'Falar com a Ana', action: { kind: 'user', userId: team.member.id } },
          ],
        },
        {
          id: 'financeiro',
          text: 'Financeiro:',
          options: [
            { key: '1', label: 'Boletos', action: { kind: 'department', departmentId: financeiro } },
            { key: '2', label: 'Pix', action: { kind: 'answer', text: 'Nossa chave Pix é o CNPJ.' } },
          ],
        },
      ],
      invalidText: 'Opção inválida.',
      maxInvalid: 2,
      timeoutMinutes: 10,
      timeoutDepartmentId: financeiro,
    };
    const saved = await call('PUT', path, { token: team.admin.token, body: menu });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ menu, updatedAt: expect.any(String) });
    expect((await call('GET', path, { token: team.member.token })).body).toEqual(saved.body);

    const other = await inboxTeam();
    expect((await call('GET', path, { token: other.owner.token })).status).toBe(404);
    expect((await call('PUT', path, { token: other.owner.token, body: { ...menu, timeoutDepartmentId: null } })).status).toBe(404);
    expect((await call('GET', `/services/${other.service.id}/menu`, { token: other.member.token })).body.menu).toBeNull();
  });

  it('refuses unknown or archived departments and people, missing submenus, and a member saving', async () => {
    const team = await inboxTeam();
    const path = `/services/${team.service.id}/menu`;
    const archived = await newDepartment(team.owner.token, 'Antigo');
    await call('POST', `/departments/${archived}/archive`, { token: team.owner.token, body: { archive: true } });
    const body = {
      enabled: true,
      menus: [
        {
          id: 'inicio',
          text: 'Escolha:',
          options: [
            { key: '1', label: 'Antigo', action: { kind: 'department', departmentId: archived } },
            { key: '2', label: 'Ninguém', action: { kind: 'user', userId: '01JZZZZZZZZZZZZZZZZZZZZZZZ' } },
          ],
        },
      ],
      invalidText: 'Opção inválida.',
      timeoutMinutes: 10,
      timeoutDepartmentId: '01JZZZZZZZZZZZZZZZZZZZZZZZ',
    };
    const refused = await call('PUT', path, { token: team.admin.token, body });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      { path: 'menus.0.options.0.action.departmentId', message: automationTexts.departmentMissing },
      { path: 'menus.0.options.1.action.userId', message: automationTexts.userMissing },
      { path: 'timeoutDepartmentId', message: automationTexts.departmentMissing },
    ]);
    const missing = await call('PUT', path, {
      token: team.admin.token,
      body: {
        ...body,
        timeoutDepartmentId: null,
        menus: [{ ...body.menus[0], options: [{ key: '1', label: 'X', action: { kind: 'submenu', menuId: 'sumiu' } }] }],
      },
    });
    expect(missing.body.details).toEqual([{ path: 'menus.0.options.0.action.menuId', message: menuTexts.submenuMissing }]);

    const member = await call('PUT', path, { token: team.member.token, body });
    expect(member.status).toBe(403);
    expect((await call('GET', path, { token: team.member.token })).body.menu).toBeNull();
  });
});
