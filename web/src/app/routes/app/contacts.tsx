import { PlaceholderPage } from './placeholder.tsx';

export default function ContactsPage() {
  return <PlaceholderPage title="Contatos" description="Os clientes que falam com a sua empresa." />;
}
