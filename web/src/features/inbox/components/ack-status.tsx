import { AlertCircle, Ban, Check, CheckCheck, Clock, Headphones } from 'lucide-react';
import { ack as ackCode } from '#contracts/message-acks.ts';
import { cn } from '#web/lib/cn.ts';

/** Every ack of docs/product.md#entities-and-states, as a tick with a spoken label. */
export const ackLabels: Record<number, string> = {
  [ackCode.error]: 'Erro no envio',
  [ackCode.deleted]: 'Apagada',
  [ackCode.sending]: 'Enviando',
  [ackCode.sent]: 'Enviada',
  [ackCode.delivered]: 'Entregue',
  [ackCode.read]: 'Lida',
  [ackCode.played]: 'Reproduzida',
};

export function AckStatus({ ack, className }: { ack: number; className?: string }) {
  const label = ackLabels[ack] ?? ackLabels[ackCode.sending]!;
  const icon = (() => {
    switch (ack) {
      case ackCode.error:
        return <AlertCircle className="size-3.5 text-danger" aria-hidden="true" />;
      case ackCode.deleted:
        return <Ban className="size-3.5" aria-hidden="true" />;
      case ackCode.sent:
        return <Check className="size-3.5" aria-hidden="true" />;
      case ackCode.delivered:
        return <CheckCheck className="size-3.5" aria-hidden="true" />;
      case ackCode.read:
        return <CheckCheck className="size-3.5 text-sky-600 dark:text-sky-400" aria-hidden="true" />;
      case ackCode.played:
        return (
          <span className="inline-flex items-center text-sky-600 dark:text-sky-400">
            <CheckCheck className="size-3.5" aria-hidden="true" />
            <Headphones className="size-3" aria-hidden="true" />
          </span>
        );
      default:
        return <Clock className="size-3" aria-hidden="true" />;
    }
  })();
  return (
    <span className={cn('inline-flex items-center', className)} title={label} data-ack={ack}>
      {icon}
      <span className="sr-only">{label}</span>
    </span>
  );
}
