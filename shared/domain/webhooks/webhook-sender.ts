/**
 * The port through which webhook deliveries leave the product. The implementation
 * (functions/lib/safe-webhook-sender.ts) refuses every destination that is not a public address,
 * checked after DNS resolution and on every redirect (ADR-0231); a
 * refusal is an answer, never a thrown error, so a delivery log can record it.
 */
export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type WebhookRefusal = 'bad_url' | 'blocked_address' | 'dns' | 'timeout' | 'too_large' | 'network' | 'too_many_redirects';

export type WebhookPostResult =
  | { outcome: 'answered'; status: number; ms: number; bodySnippet: string }
  | { outcome: 'refused'; reason: WebhookRefusal; ms: number; detail: string };

export interface WebhookSender {
  post(request: WebhookPost): Promise<WebhookPostResult>;
}
