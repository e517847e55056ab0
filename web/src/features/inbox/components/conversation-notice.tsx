import type { ReactNode } from 'react';
import { Archive, WifiOff } from 'lucide-react';
import { archivedByLimitText } from '#contracts/contact-limits.ts';
import type { Contact } from '#contracts/contacts.ts';
import { ButtonLink } from '#web/components/ui/button.tsx';

function Notice({ icon, title, text, action, to }: { icon: ReactNode; title: string; text: string; action: string; to: string }) {
  return (
    <div className="flex flex-wrap items-center gap-3 border-t border-border bg-surface px-4 py-3" role="status">
      <span className="flex size-9 items-center justify-center rounded-full bg-warning-soft text-warning">{icon}</span>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold text-fg">{title}</p>
        <p className="text-xs text-fg-muted">{text}</p>
      </div>
      <ButtonLink to={to} variant="outline" size="sm">
        {action}
      </ButtonLink>
    </div>
  );
}

/** Why the composer is not there: the contact is archived, or its connection is down. */
export function ConversationNotice({ contact }: { contact: Pick<Contact, 'archivedAt' | 'archivedReason'> }) {
  if (contact.archivedAt) {
    return (
      <Notice
        icon={<Archive className="size-4" aria-hidden="true" />}
        title="Contato arquivado"
        text={contact.archivedReason === 'limit' ? archivedByLimitText : 'Desarquive o contato para voltar a conversar.'}
        action="Ver contatos"
        to="/contacts"
      />
    );
  }
  return (
    <Notice
      icon={<WifiOff className="size-4" aria-hidden="true" />}
      title="Conexão desconectada"
      text="Conecte novamente a conexão deste contato para enviar mensagens."
      action="Ver conexões"
      to="/services"
    />
  );
}
