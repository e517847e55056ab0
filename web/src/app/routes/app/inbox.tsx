import { PlaceholderPage } from './placeholder.tsx';

export default function InboxPage() {
  return <PlaceholderPage title="Chat" description="As conversas de WhatsApp e Telegram da sua equipe." />;
}
