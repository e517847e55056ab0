/**
 * The read batch (`POST /batch`, docs/api.md#read-batch): several GETs of the `api` function's routes
 * sent as one request, each answered as it would be alone. The web app's API client sends the GETs
 * a screen asks for in the same tick this way (web/src/lib/api-batch.ts), so a first paint meets one
 * Lambda container instead of one per request (ADR-0209).
 * Without zod, so the API client does not load it (the body's schema is batch-payload.ts).
 */
/**
 * Paths of GETs the `api` function does not serve (the payment routes that call Stripe; the product
 * for sale is read from the table by `api`, ADR-0228), which a batch refuses; the web client sends
 * them alone. functions/lib/read-batch.test.ts checks this against the route list.
 */
export const unbatchablePrefixes: readonly string[] = ['/payments/checkout-session'];

/** Sub-requests a batch may carry. */
export const maxBatchRequests = 8;

export const batchPathText = 'Informe o caminho da leitura, começando por /';
export const batchQueryText = 'Os parâmetros da leitura devem ser textos';
export const batchMethodText = 'Só leituras (GET) podem ir num lote';
export const batchSizeText = `Envie de 1 a ${maxBatchRequests} leituras por lote`;

/** One GET: its path under /api (`/contacts/01J…`) and its URL query parameters, unencoded. */
export interface BatchRequest {
  method?: 'GET';
  path: string;
  query?: Record<string, string>;
}

/** A sub-request's answer: the status and the JSON body the route answers alone (null for none). */
export interface BatchAnswer {
  status: number;
  body: unknown;
}

/** `POST /batch`'s answer: one answer per sub-request, in their order. */
export interface BatchResult {
  responses: BatchAnswer[];
}

/** Why a sub-request is refused before any runs (`details[].message` of the batch's 400). */
export const batchRefusalTexts = {
  notARoute: 'Nenhuma leitura (GET) da API tem este caminho',
  otherFunction: 'Esta leitura não pode ir num lote: é servida por outra função',
} as const;
