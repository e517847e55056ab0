import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import type { PlanLimits } from '#contracts/plans.ts';
import type { ServiceStatus } from '#contracts/services.ts';
import { keys } from '#db/keys.ts';
import type { Ports } from '#domain/ports.ts';
import { startFakeGraphApi, type FakeGraphApi } from '../support/fake-graph-api.ts';
import { startFakeTelegram, type FakeTelegram } from '../support/fake-telegram.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { runtimePorts } from '../support/runtime-ports.ts';
import { WhatsAppControl } from '../support/whatsapp-control.ts';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { callApi, chromiumArgs, ensureWebBuild, runtimeAndBrowser, strongPassword, uniqueEmail } from './browser.ts';

export interface World {
  runtime: RunningRuntime;
  browser: Browser;
  base: string;
  ports: Ports;
  telegram: FakeTelegram;
  /** The WhatsApp socket double's control, when the world was started with `whatsappDouble`. */
  whatsapp: WhatsAppControl | null;
  /** The Graph API double standing in for Meta, when the world was started with `graphApi`. */
  graph: FakeGraphApi | null;
  stop(): Promise<void>;
}

export interface WorldOptions {
  /** Runs WhatsApp on the socket double (tests/support/runtime-with-whatsapp-double.ts), its sends paced this far apart. */
  whatsappDouble?: { paceMs: number };
  /** Starts the Graph API double (tests/support/fake-graph-api.ts) first and points WHATSAPP_CLOUD_GRAPH_URL at it. */
  graphApi?: { appSecret: string };
  /**
   * With `graphApi`: the operator's Meta app for Embedded Signup is the double's own (META_APP_ID,
   * META_APP_SECRET) with this login configuration id (META_CONFIG_ID).
   */
  metaApp?: { configId: string };
  /** More of the runtime's environment (CAMPAIGN_POLL_MS for the campaigns' poller...). */
  env?: Record<string, string>;
}

export async function startWorld(options: WorldOptions = {}): Promise<World> {
  ensureWebBuild();
  const telegram = await startFakeTelegram();
  const graph = options.graphApi ? await startFakeGraphApi({ appSecret: options.graphApi.appSecret, now: Date.now() }) : null;
  const [runtime, browser] = await runtimeAndBrowser(
    spawnLocalRuntime({
      ...(graph ? { WHATSAPP_CLOUD_GRAPH_URL: graph.url } : {}),
      ...(graph && options.metaApp ? { META_APP_ID: graph.appId, META_CONFIG_ID: options.metaApp.configId, META_APP_SECRET: graph.appSecret } : {}),
      TELEGRAM_API_ROOT: telegram.url,
      TELEGRAM_MODE: 'polling',
      ...(options.whatsappDouble ? { WHATSAPP_DOUBLE: '1', WHATSAPP_DOUBLE_PACE_MS: String(options.whatsappDouble.paceMs) } : {}),
      ...options.env,
    }),
    // Chromium's fake microphone answers getUserMedia without a prompt (the voice-note test).
    chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [...chromiumArgs, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', '--autoplay-policy=no-user-gesture-required'],
    }),
  );
  const ports = runtimePorts(runtime);
  return {
    runtime,
    browser,
    base: runtime.url,
    ports,
    telegram,
    whatsapp: runtime.whatsappControlUrl ? new WhatsAppControl(runtime.whatsappControlUrl) : null,
    graph,
    async stop() {
      await Promise.all([browser.close(), runtime.stop()]);
      await telegram.close();
      await graph?.close();
    },
  };
}

async function update(world: World, key: Record<string, string>, field: string, value: unknown): Promise<void> {
  await world.ports.table.doc.send(
    new UpdateCommand({
      TableName: world.ports.table.name,
      Key: key,
      UpdateExpression: 'SET #f = :v, updatedAt = :now',
      ExpressionAttributeNames: { '#f': field },
      ExpressionAttributeValues: { ':v': value, ':now': new Date().toISOString() },
    }),
  );
}

/** Sets an account's plan, as the billing webhook will. */
export function setPlan(world: World, accountId: string, plan: PlanLimits): Promise<void> {
  return update(world, keys.account(accountId) as Record<string, string>, 'plan', plan);
}

/** Sets a connection's status, as the channel worker does when a channel connects or drops. */
export function setServiceStatus(world: World, accountId: string, serviceId: string, status: ServiceStatus): Promise<void> {
  return update(world, keys.service(accountId, serviceId) as Record<string, string>, 'status', status);
}

export interface Member {
  token: string;
  user: any;
  email: string;
  accountId: string;
}

/** A Pro account with its owner (admin), and helpers to add people. */
export async function newTeam(
  world: World,
  accountName: string,
  ownerName = 'Dona Ana',
): Promise<{ owner: Member; addUser(name: string, isAdmin: boolean): Promise<Member> }> {
  const email = uniqueEmail('dona');
  const registered = await callApi(world.base, 'POST', '/auth/register', { name: ownerName, email, password: strongPassword });
  if (registered.status !== 201) throw new Error(JSON.stringify(registered.body));
  const created = await callApi(world.base, 'POST', '/accounts', { name: accountName }, registered.body.accessToken);
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const accountId = created.body.id as string;
  await setPlan(world, accountId, { productName: 'Pro', users: 10, connections: 5, contacts: 25000 });
  const owner: Member = { token: created.body.accessToken, user: created.body.user, email, accountId };
  return {
    owner,
    async addUser(name, isAdmin) {
      const userEmail = uniqueEmail(name.toLowerCase().replace(/\W+/g, '.'));
      const made = await callApi(world.base, 'POST', '/users', { name, email: userEmail, password: strongPassword, isAdmin }, owner.token);
      if (made.status !== 201) throw new Error(JSON.stringify(made.body));
      const login = await callApi(world.base, 'POST', '/auth/login', { email: userEmail, password: strongPassword });
      if (!login.body.accessToken) throw new Error(JSON.stringify(login.body));
      return { token: login.body.accessToken, user: login.body.user, email: userEmail, accountId };
    },
  };
}

/**
 * A world of the test file's own: started before its tests (`ready` gets it, to keep it and seed
 * what the tests share), stopped after them.
 */
export function fileWorld(ready: (world: World) => void | Promise<void>, options: WorldOptions = {}): void {
  let world: World | undefined;
  beforeAll(async () => {
    world = await startWorld(options);
    await ready(world);
  });
  afterAll(async () => {
    await world?.stop();
  });
}

/** The bakery the team screens are shown on: its owner Carla Souza, and Marina Costa, a member. */
export async function doceria(world: World) {
  const team = await newTeam(world, 'Doceria da Carla', 'Carla Souza');
  return { team, owner: team.owner, marina: await team.addUser('Marina Costa', false) };
}

/** Puts a session in the page's storage (the persisted auth state) and opens a path. */
export async function openAs(page: Page, world: World, member: Member, path: string): Promise<void> {
  await page.goto(`${world.base}/robots.txt`);
  await page.evaluate(([token, user]) => localStorage.setItem('conversa-auth', JSON.stringify({ accessToken: token, user })), [
    member.token,
    member.user,
  ] as const);
  await page.goto(`${world.base}${path}`);
}

/** Polls a condition (robust on a loaded machine: generous deadline, short steps). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
