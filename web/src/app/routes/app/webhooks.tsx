import { WebhooksScreen } from '#web/features/webhooks/components/webhooks-screen.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

/** /webhooks (docs/product.md#webhooks). */
export default function WebhooksPage() {
  usePageMeta({ title: 'Webhooks', noindex: true });
  return <WebhooksScreen />;
}
