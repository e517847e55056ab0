/**
 * The benchmarks' inbox data (docs/product.md#performance-goals): one account with 25,000 contacts, each a conversation,
 * and 100,000 messages, one conversation of 5,000. Drawn from mulberry32, a 32-bit generator in
 * integer arithmetic: the former `(seed * 1103515245 + 12345) % 2 ** 31` in doubles lost its low
 * bits past 2^53 and cycled after about 10,000 values (4,463 distinct names, 13,278 contacts
 * without a message). Same seed, same data.
 */
import { ulid } from 'ulid';
import { newAccountItem } from '#db/accounts.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { summaryOf, type MessageItem } from '#db/messages.ts';
import { benchContactItem, benchMessageItem, benchOwnerItems, benchServiceItem } from './bench-seed.ts';

/** A generator of uniform numbers in [0, 1), period 2^32 (Tommy Ettinger's mulberry32). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export interface InboxShape {
  contacts: number;
  messages: number;
  /** The messages of the first contact's conversation. */
  bigConversation: number;
  seed: number;
}

/** The issue's data. */
export const issueShape: InboxShape = { contacts: 25_000, messages: 100_000, bigConversation: 5_000, seed: 42 };

const first = [
  'Ana',
  'João',
  'Maria',
  'José',
  'Francisca',
  'Antônio',
  'Adriana',
  'Carlos',
  'Juliana',
  'Paulo',
  'Márcia',
  'Lucas',
  'Fernanda',
  'Pedro',
  'Patrícia',
  'Gabriel',
  'Aline',
  'Rafael',
  'Camila',
  'Bruno',
  'Letícia',
  'Marcos',
  'Beatriz',
  'Thiago',
  'Larissa',
];
const surnames = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
  'Araújo',
  'Conceição',
  'Moreira',
  'Nascimento',
  'Cardoso',
];

export interface PlannedContact {
  name: string;
  phone: string;
  email: string;
  /** Messages in its conversation: at least one each (every contact is a conversation). */
  messages: number;
}

/** Names, numbers and conversation sizes: contact 0 holds the big conversation, the rest share what is left, one at least each. */
export function planInbox(shape: InboxShape, random = mulberry32(shape.seed)): PlannedContact[] {
  if (shape.messages < shape.bigConversation + shape.contacts - 1) throw new Error('fewer messages than conversations');
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const counts = Array.from({ length: shape.contacts }, (_, c) => (c === 0 ? shape.bigConversation : 1));
  for (let m = shape.bigConversation + shape.contacts - 1; m < shape.messages; m++) counts[1 + Math.floor(random() * (shape.contacts - 1))]!++;
  return counts.map((messages, c) => ({
    name: `${pick(first)} ${pick(surnames)} ${pick(surnames)}`,
    phone: `55${11 + (c % 80)}9${String(10_000_000 + c).slice(-8)}`,
    email: `cliente${c}@exemplo.com.br`,
    messages,
  }));
}

export interface SeededInbox {
  accountId: string;
  serviceId: string;
  email: string;
  password: string;
  contacts: { id: string; name: string }[];
  bigContactId: string;
  /** The owner's user id: a fifth of the conversations are assigned to them (the team inbox's 'Meus'). */
  ownerId: string;
}

/**
 * The account, its owner, one WhatsApp connection, the contacts with their channel guards and the
 * messages, as the product's key module shapes them; `put` receives them one by one.
 */
export async function inboxItems(shape: InboxShape, put: (item: Record<string, unknown>) => Promise<void>, now = Date.now()): Promise<SeededInbox> {
  const random = mulberry32(shape.seed);
  const plan = planInbox(shape, random);
  const iso = (ms: number) => new Date(ms).toISOString();
  const accountId = ulid(now);
  const email = 'bench@example.com';
  const password = 'Bench#Senha123';
  await put({
    ...newAccountItem(accountId, 'Loja Benchmark', iso(now)),
    plan: { productName: 'Pro', users: 10, connections: 5, contacts: shape.contacts },
    usersCount: 1,
    servicesCount: 1,
    contactsCount: shape.contacts,
  });
  const ownerItems = await benchOwnerItems(accountId, email, password, iso(now));
  for (const item of ownerItems) await put(item);
  // The team inbox (docs/product.md#team-inbox): a fifth of the contacts are the owner's, every contact is in one of 4 departments.
  const owner = ownerItems.find((i) => i.type === entityTypes.user) as unknown as { id: string; name: string };
  const serviceId = ulid(now);
  const service = benchServiceItem(accountId, serviceId, 'WhatsApp Bench', 'connected', iso(now));
  await put(service as unknown as Record<string, unknown>);

  const contacts: { id: string; name: string }[] = [];
  for (const [c, planned] of plan.entries()) {
    const id = ulid(now - 400 * 86_400_000 + c);
    let last: MessageItem | null = null;
    // Between 340 and 40 days ago: the big conversation's 5,000 messages (at most 35 days) still end in the past.
    let at = now - 40 * 86_400_000 - Math.floor(random() * 300 * 86_400_000);
    for (let m = 0; m < planned.messages; m++) {
      at += 1000 + Math.floor(random() * 600_000);
      const fromMe = random() < 0.5;
      const text = fromMe ? 'Olá! Seu pedido já foi enviado e chega amanhã.' : 'Bom dia, gostaria de saber o status do meu pedido, por favor.';
      last = benchMessageItem({ accountId, contactId: id, serviceId }, at, text, fromMe);
      await put(last as unknown as Record<string, unknown>);
    }
    const item = benchContactItem({
      id,
      accountId,
      serviceId,
      name: planned.name,
      email: planned.email,
      phoneNumber: planned.phone,
      lastMessage: last ? summaryOf(last) : null,
      lastMessageAt: last ? last.timestamp : null,
      unread: last && !last.isFromMe ? 1 : 0,
      messagesCount: planned.messages,
      userId: c % 5 === 0 ? owner.id : null,
      user: c % 5 === 0 ? { id: owner.id, name: owner.name } : null,
      departmentId: `D${c % 4}`,
      department: { id: `D${c % 4}`, name: `Departamento ${c % 4}` },
      status: c % 3 === 0 ? 'resolved' : 'open',
      createdAt: iso(now - 400 * 86_400_000),
      updatedAt: iso(now - 60_000 + (c % 1000)),
    });
    await put(item as unknown as Record<string, unknown>);
    await put({ ...keys.channelContact(accountId, serviceId, item.idFromService), type: entityTypes.channelContact, contactId: id });
    contacts.push({ id, name: planned.name });
  }
  return { accountId, serviceId, email, password, contacts, bigContactId: contacts[0]!.id, ownerId: owner.id };
}

/** The inbox data written in batches of 25, 64 batches in flight. */
export async function seedInbox(write: (items: Record<string, unknown>[]) => Promise<void>, shape: InboxShape): Promise<SeededInbox> {
  const pending = new Set<Promise<void>>();
  let failure: unknown;
  let buffer: Record<string, unknown>[] = [];
  const flush = async () => {
    const batch = write(buffer);
    buffer = [];
    pending.add(batch);
    batch.then(
      () => pending.delete(batch),
      (error: unknown) => {
        pending.delete(batch);
        failure ??= error;
      },
    );
    if (pending.size >= 64) await Promise.race(pending);
    if (failure) throw failure;
  };
  const seeded = await inboxItems(shape, async (item) => {
    buffer.push(item);
    if (buffer.length === 25) await flush();
  });
  if (buffer.length) await flush();
  await Promise.all(pending);
  return seeded;
}
