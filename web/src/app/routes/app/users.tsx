import { PlaceholderPage } from './placeholder.tsx';

export default function UsersPage() {
  return <PlaceholderPage title="Usuários" description="As pessoas da sua equipe que atendem pelo Conversa." />;
}
