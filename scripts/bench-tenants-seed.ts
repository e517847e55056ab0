/**
 * The tenant simulation's data (`npm run bench:tenants`, docs/product.md#performance-goals): many
 * accounts on one table, most small, some medium, a few large, each with its owner, one WhatsApp
 * connection, its contacts (each a conversation of one to three messages) and, for a large one,
 * one conversation of 2,000 messages. One bench password, hashed once, is every owner's: scrypt
 * per account would take minutes at a thousand accounts. Same scale, same data (mulberry32).
 */
import { ulid } from 'ulid';
import { scryptPasswords } from '#lib/scrypt-passwords.ts';
import { newAccountItem } from '#db/accounts.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { summaryOf, type MessageItem } from '#db/messages.ts';
import { newUserItem } from '#db/users.ts';
import { mulberry32, planInbox } from './bench-data.ts';
import { benchContactItem, benchMessageItem, benchServiceItem } from './bench-seed.ts';

export type TenantSize = 'small' | 'medium' | 'large';

/** Contacts and the big conversation's messages by size. */
const tenantSizes: Record<TenantSize, { contacts: number; bigConversation: number }> = {
  small: { contacts: 500, bigConversation: 3 },
  medium: { contacts: 5_000, bigConversation: 3 },
  large: { contacts: 50_000, bigConversation: 2_000 },
};

/** The mix of `tenants` accounts: 95 % small, 4.5 % medium, 0.5 % large (950, 45 and 5 of 1,000), one of each at least. */
export function tenantMix(tenants: number): Record<TenantSize, number> {
  const large = Math.max(1, Math.round(tenants * 0.005));
  const medium = Math.max(1, Math.round(tenants * 0.045));
  return { small: Math.max(0, tenants - large - medium), medium, large };
}

export interface SeededTenant {
  index: number;
  size: TenantSize;
  accountId: string;
  serviceId: string;
  email: string;
  contacts: number;
  /** A few contacts for message pages, sends and inbound messages: id and WhatsApp JID. */
  sample: { id: string; jid: string }[];
  /** The contact with the account's biggest conversation. */
  bigContactId: string;
}

export const benchPassword = 'Bench#Senha123';

/** Every account's items, handed to `put` one by one, large accounts first. */
async function tenantItems(tenants: number, put: (item: Record<string, unknown>) => Promise<void>, now = Date.now()): Promise<SeededTenant[]> {
  const passwordHash = await scryptPasswords().hash(benchPassword);
  const mix = tenantMix(tenants);
  const sizes: TenantSize[] = [
    ...Array<TenantSize>(mix.large).fill('large'),
    ...Array<TenantSize>(mix.medium).fill('medium'),
    ...Array<TenantSize>(mix.small).fill('small'),
  ];
  const iso = (ms: number) => new Date(ms).toISOString();
  const seeded: SeededTenant[] = [];
  for (const [index, size] of sizes.entries()) {
    const { contacts, bigConversation } = tenantSizes[size];
    const random = mulberry32(1000 + index);
    // One to three messages a conversation, two on average, and the big one.
    const plan = planInbox({ contacts, messages: 2 * contacts + bigConversation, bigConversation, seed: 1000 + index }, random);
    const accountId = ulid(now);
    const email = `dona${index}@bench.example.com`;
    await put({
      ...newAccountItem(accountId, `Loja ${index}`, iso(now)),
      plan: { productName: 'Pro', users: 10, connections: 5, contacts: contacts + 10_000 },
      usersCount: 1,
      servicesCount: 1,
      contactsCount: contacts,
    });
    const owner = {
      ...newUserItem({ id: ulid(now), name: `Dona ${index}`, email, accountId, passwordHash, isAdmin: true }, iso(now)),
      isOwner: true,
      emailVerified: true,
    };
    await put(owner);
    await put({ ...keys.userEmail(accountId, email), type: entityTypes.userEmail });
    const serviceId = ulid(now);
    await put(benchServiceItem(accountId, serviceId, 'WhatsApp', 'connected', iso(now)) as unknown as Record<string, unknown>);
    const sample: SeededTenant['sample'] = [];
    let bigContactId = '';
    for (const [c, planned] of plan.entries()) {
      const id = ulid(now - 400 * 86_400_000 + c);
      let last: MessageItem | null = null;
      let at = now - 40 * 86_400_000 - Math.floor(random() * 300 * 86_400_000);
      for (let m = 0; m < planned.messages; m++) {
        at += 1000 + Math.floor(random() * 600_000);
        const fromMe = random() < 0.5;
        last = benchMessageItem(
          { accountId, contactId: id, serviceId },
          at,
          fromMe ? 'Seu pedido saiu para entrega.' : 'Bom dia, qual o prazo de entrega?',
          fromMe,
        );
        await put(last as unknown as Record<string, unknown>);
      }
      const contact = benchContactItem({
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
        userId: null,
        user: null,
        departmentId: null,
        department: null,
        status: 'open',
        createdAt: iso(now - 400 * 86_400_000),
        updatedAt: iso(now - 60_000),
      });
      await put(contact as unknown as Record<string, unknown>);
      await put({ ...keys.channelContact(accountId, serviceId, contact.idFromService), type: entityTypes.channelContact, contactId: id });
      if (c === 0) bigContactId = id;
      if (c % Math.ceil(contacts / 20) === 0) sample.push({ id, jid: contact.idFromService });
    }
    seeded.push({ index, size, accountId, serviceId, email, contacts, sample, bigContactId });
  }
  return seeded;
}

/** The accounts written in batches of 25, 64 batches in flight (as bench-data.ts's seedInbox). */
export async function seedTenants(write: (items: Record<string, unknown>[]) => Promise<void>, tenants: number): Promise<SeededTenant[]> {
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
  const seeded = await tenantItems(tenants, async (item) => {
    buffer.push(item);
    if (buffer.length === 25) await flush();
  });
  if (buffer.length) await flush();
  await Promise.all(pending);
  if (failure) throw failure;
  return seeded;
}
