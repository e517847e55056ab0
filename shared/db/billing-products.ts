/**
 * The paid product and its prices as the payment provider last answered them (ADR-0228): one item
 * for the deployment. The functions that hold the provider's key refresh it; the API's function,
 * which has no such key, answers `GET /payments/products` from it.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { PaymentProduct } from '#contracts/payments.ts';
import type { Table } from './client.ts';
import { unlessConditionFails } from './conditions.ts';
import { entityTypes, keys } from './keys.ts';

export interface BillingProductsItem {
  products: PaymentProduct[];
  /** When the provider answered (ISO). */
  refreshedAt: string;
}

export async function getBillingProducts(table: Table): Promise<BillingProductsItem | null> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.billingProducts() }));
  return Item ? { products: Item.products as PaymentProduct[], refreshedAt: Item.refreshedAt as string } : null;
}

/** Writes the provider's answer unless one read later is already stored; false when it was older. */
export async function putBillingProducts(table: Table, value: BillingProductsItem): Promise<boolean> {
  const written = await unlessConditionFails(
    table.doc.send(
      new PutCommand({
        TableName: table.name,
        Item: { ...keys.billingProducts(), type: entityTypes.billingProducts, ...value },
        ConditionExpression: 'attribute_not_exists(pk) OR refreshedAt <= :at',
        ExpressionAttributeValues: { ':at': value.refreshedAt },
      }),
    ),
  );
  return written !== undefined;
}

/** Payments are no longer configured: nothing is for sale. */
export async function deleteBillingProducts(table: Table): Promise<void> {
  await table.doc.send(new DeleteCommand({ TableName: table.name, Key: keys.billingProducts() }));
}
