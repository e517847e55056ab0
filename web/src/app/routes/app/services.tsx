import { PlaceholderPage } from './placeholder.tsx';

export default function ServicesPage() {
  return <PlaceholderPage title="Conexões" description="Os números de WhatsApp e os bots de Telegram da sua conta." />;
}
