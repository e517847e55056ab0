import { ApiTokensScreen } from '#web/features/api-tokens/components/api-tokens-screen.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

/** /api-tokens (docs/product.md#tokens-de-api). */
export default function ApiTokensPage() {
  usePageMeta({ title: 'Tokens de API', noindex: true });
  return <ApiTokensScreen />;
}
