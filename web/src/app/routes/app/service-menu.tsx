import { useParams } from 'react-router';
import { MenuScreen } from '#web/features/automations/components/menu-screen.tsx';
import { useService } from '#web/features/services/api/get-service.ts';
import { usePageMeta } from '#web/lib/seo.ts';

/** /services/{id}/menu: a connection's 'Menu de atendimento', under the connection's name. */
export default function ServiceMenuPage() {
  usePageMeta({ title: 'Menu de atendimento', noindex: true });
  const { id } = useParams();
  const service = useService(id);
  return <MenuScreen key={id} serviceId={id!} serviceName={service.data?.name} />;
}
