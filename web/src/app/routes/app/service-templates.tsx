import { useParams } from 'react-router';
import { TemplatesScreen } from '#web/features/services/components/templates-screen.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

/** /services/{id}/templates: a WhatsApp (API oficial) connection's message templates. */
export default function ServiceTemplatesPage() {
  usePageMeta({ title: 'Modelos de mensagem', noindex: true });
  const { id } = useParams();
  return <TemplatesScreen key={id} serviceId={id!} />;
}
