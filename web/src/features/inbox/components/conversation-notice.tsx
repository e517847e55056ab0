import type { ReactNode } from 'react';
import { Archive, Clock, TimerOff, WifiOff } from 'lucide-react';
import { archivedByLimitText } from '#contracts/contact-limits.ts';
import type { Contact } from '#contracts/contacts.ts';
import type { CustomerWindow } from '#contracts/customer-window.ts';
import { Button, ButtonLink } from '#web/components/ui/button.tsx';
import { formatClockTime, formatDate, formatDateTime } from '#web/lib/format.ts';

type NoticeAction = { label: string; to: string } | { label: string; onClick: () => void };

function Notice({ icon, title, text, action }: { icon: ReactNode; title: string; text: string; action?: NoticeAction }) {
  return (
    <div className="flex flex-wrap items-center gap-3 border-t border-border bg-surface px-4 py-3" role="status">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-warning-soft text-warning">{icon}</span>
      <div className="min-w-0 flex-1 basis-56">
        <p className="text-sm font-semibold text-fg">{title}</p>
        <p className="text-xs text-fg-muted">{text}</p>
      </div>
      {action && 'to' in action ? (
        <ButtonLink to={action.to} variant="outline" size="sm">
          {action.label}
        </ButtonLink>
      ) : action ? (
        <Button variant="outline" size="sm" onClick={action.onClick}>
          {action.label}
        </Button>
      ) : null}
    </div>
  );
}

/** What the closed window notice says: since when the customer has not written, if ever. */
export function windowClosedText(status: Extract<CustomerWindow, { kind: 'closed' }>): string {
  return status.lastInboundAt
    ? `A janela de 24 horas do WhatsApp fechou: o cliente não escreve desde ${formatDateTime(status.lastInboundAt)}. Só modelos de mensagem aprovados podem ser enviados até ele escrever de novo.`
    : 'O cliente ainda não escreveu para este número do WhatsApp (API oficial). Só modelos de mensagem aprovados podem ser enviados até ele escrever.';
}

/**
 * Why the composer writes only notes: the contact is archived, its connection is down, or (a
 * WhatsApp (API oficial) contact) the 24-hour window is closed.
 */
export function ConversationNotice({
  contact,
  window: status,
  onSendTemplate,
}: {
  contact: Pick<Contact, 'archivedAt' | 'archivedReason'>;
  /** The closed window, when that is the reason (the connection is up). */
  window?: Extract<CustomerWindow, { kind: 'closed' }>;
  /** Opens 'Enviar modelo de mensagem': what may still reach the customer once the window closed. */
  onSendTemplate?: () => void;
}) {
  if (contact.archivedAt) {
    return (
      <Notice
        icon={<Archive className="size-4" aria-hidden="true" />}
        title="Contato arquivado"
        text={contact.archivedReason === 'limit' ? archivedByLimitText : 'Desarquive o contato para voltar a conversar.'}
        action={{ label: 'Ver contatos', to: '/contacts' }}
      />
    );
  }
  if (status) {
    return (
      <Notice
        icon={<TimerOff className="size-4" aria-hidden="true" />}
        title="Janela de 24 horas fechada"
        text={windowClosedText(status)}
        action={onSendTemplate ? { label: 'Enviar modelo', onClick: onSendTemplate } : undefined}
      />
    );
  }
  return (
    <Notice
      icon={<WifiOff className="size-4" aria-hidden="true" />}
      title="Conexão desconectada"
      text="Conecte novamente a conexão deste contato para enviar mensagens."
      action={{ label: 'Ver conexões', to: '/services' }}
    />
  );
}

/** 'Janela aberta até 15:00' (with the date when it closes on another day than today). */
export function windowOpenText(closesAt: string, now: Date = new Date()): string {
  const sameDay = formatDate(closesAt) === formatDate(now);
  return `Janela aberta até ${sameDay ? formatClockTime(closesAt) : formatDateTime(closesAt)}`;
}

/** The discreet line of the window's last two hours, above the composer. */
export function WindowClosingLine({ closesAt }: { closesAt: string }) {
  return (
    <p className="flex items-center gap-1.5 border-t border-border bg-surface px-4 py-1.5 text-xs text-fg-muted" data-testid="window-closing">
      <Clock className="size-3.5 shrink-0" aria-hidden="true" />
      {windowOpenText(closesAt)}
      <span className="sr-only">: depois disso, só modelos de mensagem aprovados até o cliente escrever de novo</span>
    </p>
  );
}
