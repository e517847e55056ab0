import { useState } from 'react';
import { ArrowRightLeft, CheckCircle2, Clock, EllipsisVertical, Hand, RotateCcw, UserMinus } from 'lucide-react';
import type { Contact } from '#contracts/contacts.ts';
import type { ConversationStatus } from '#contracts/conversations.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Menu, type MenuItem } from '#web/components/ui/menu.tsx';
import { useSession } from '#web/lib/auth.ts';
import { useMediaQuery } from '#web/lib/use-media-query.ts';
import { useConversationActions } from '#web/features/inbox/hooks/use-conversation-actions.ts';
import { allowedConversationActions, statusActionLabels } from '#web/features/inbox/lib/allowed-actions.ts';
import { TransferDialog } from './transfer-dialog.tsx';

const statusIcons: Record<ConversationStatus, typeof Clock> = { open: RotateCcw, pending: Clock, resolved: CheckCircle2 };
const icon = 'size-4 shrink-0 text-fg-muted';

/**
 * The header's actions, only those the signed-in person may do: 'Assumir' and (wide screens)
 * 'Transferir' as buttons, the rest ('Liberar', the status changes; on phones 'Transferir' too)
 * in the 'Mais ações' menu.
 */
export function ConversationActions({ contact }: { contact: Contact }) {
  const { user } = useSession();
  const wide = useMediaQuery('(min-width: 640px)');
  const [transferring, setTransferring] = useState(false);
  const { run, pending } = useConversationActions(contact);
  if (!user) return null;
  const allowed = allowedConversationActions(contact, user);

  const openTransfer = () => setTransferring(true);
  const menu: MenuItem[] = [];
  if (allowed.transfer && !wide) menu.push({ label: 'Transferir', onSelect: openTransfer, icon: <ArrowRightLeft className={icon} aria-hidden="true" /> });
  if (allowed.release)
    menu.push({ label: 'Liberar', onSelect: () => void run({ action: 'release' }), icon: <UserMinus className={icon} aria-hidden="true" /> });
  for (const status of allowed.statuses) {
    const Icon = statusIcons[status];
    menu.push({
      label: statusActionLabels[status],
      onSelect: () => void run({ action: 'status', status }),
      icon: <Icon className={icon} aria-hidden="true" />,
    });
  }

  return (
    <div className="flex shrink-0 items-center gap-1.5 sm:gap-2">
      {allowed.take ? (
        <Button size="sm" loading={pending} onClick={() => void run({ action: 'take' })}>
          <Hand className="size-4" aria-hidden="true" />
          Assumir
        </Button>
      ) : null}
      {allowed.transfer && wide ? (
        <Button size="sm" variant="outline" onClick={openTransfer}>
          <ArrowRightLeft className="size-4" aria-hidden="true" />
          Transferir
        </Button>
      ) : null}
      {menu.length ? (
        <Menu label="Mais ações" items={menu}>
          <EllipsisVertical className="size-5" aria-hidden="true" />
        </Menu>
      ) : null}
      {transferring ? (
        <TransferDialog
          contact={contact}
          onClose={() => setTransferring(false)}
          onTransfer={(payload, setErrors) => run({ action: 'transfer', payload }, setErrors)}
        />
      ) : null}
    </div>
  );
}
