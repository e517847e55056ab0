/**
 * A team's inbox for the team inbox list's browser test and screenshots: an admin and a member,
 * a department, tags, and conversations mine, someone else's, unassigned, in a department, tagged
 * and resolved, all made through the API as people would.
 */
import { callApi } from './browser.ts';
import { newTeam, type Member, type World } from './world.ts';

export interface TeamInbox {
  owner: Member;
  marina: Member;
  department: { id: string; name: string };
  tags: Record<string, string>;
  /** Contact ids by name. */
  contacts: Record<string, string>;
}

async function ok(answer: Promise<{ status: number; body: any }>): Promise<any> {
  const { status, body } = await answer;
  if (status >= 300) throw new Error(`${status} ${JSON.stringify(body)}`);
  return body;
}

export async function seedTeamInbox(world: World): Promise<TeamInbox> {
  const base = world.base;
  const team = await newTeam(world, 'Doceria da Carla', 'Carla Souza');
  const { owner } = team;
  const marina = await team.addUser('Marina Costa', false);
  const department = await ok(callApi(base, 'POST', '/departments', { name: 'Financeiro', userIds: [marina.user.id] }, owner.token));
  const tags: Record<string, string> = {};
  for (const [name, color] of [
    ['VIP', '#db2777'],
    ['Atacado', '#2563eb'],
    ['Revenda', '#7c3aed'],
  ] as const) {
    tags[name] = (await ok(callApi(base, 'POST', '/tags', { name, color }, owner.token))).id;
  }
  const zap = await ok(callApi(base, 'POST', '/services', { name: 'WhatsApp Vendas', type: 'whatsapp' }, owner.token));
  const contacts: Record<string, string> = {};
  const people = [
    ['Dona Maria', '5511987650001'],
    ['Seu João', '5511987650002'],
    ['Padaria Central', '5511987650003'],
    ['Lucas Prado', '5511987650004'],
    ['Bia Rocha', '5511987650005'],
  ] as const;
  for (const [name, phone] of people) {
    const made = await ok(callApi(base, 'POST', '/contacts', { name, serviceId: zap.id, data: { phoneNumber: phone, phoneCountry: 'BR' } }, owner.token));
    contacts[name] = made.id;
  }
  // Carla's; Seu João tagged three times, nobody's; Padaria Central in Financeiro's queue;
  // Lucas Prado Marina's; Bia Rocha nobody's and resolved.
  await ok(callApi(base, 'POST', `/contacts/${contacts['Dona Maria']}/take`, {}, owner.token));
  await ok(callApi(base, 'PUT', `/contacts/${contacts['Dona Maria']}/tags`, { tagIds: [tags.VIP] }, owner.token));
  await ok(callApi(base, 'PUT', `/contacts/${contacts['Seu João']}/tags`, { tagIds: [tags.VIP, tags.Atacado, tags.Revenda] }, owner.token));
  await ok(callApi(base, 'POST', `/contacts/${contacts['Padaria Central']}/transfer`, { departmentId: department.id }, owner.token));
  await ok(callApi(base, 'POST', `/contacts/${contacts['Lucas Prado']}/take`, {}, marina.token));
  await ok(callApi(base, 'POST', `/contacts/${contacts['Bia Rocha']}/status`, { status: 'resolved' }, owner.token));
  return { owner, marina, department, tags, contacts };
}
