import { useParams } from 'react-router';
import { MenuScreen } from '#web/features/automations/components/menu-screen.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

/** /services/{id}/menu: a connection's 'Menu de atendimento'. */
export default function ServiceMenuPage() {
  usePageMeta({ title: 'Menu de atendimento', noindex: true });
  const { id } = useParams();
  return <MenuScreen key={id} serviceId={id!} />;
}
