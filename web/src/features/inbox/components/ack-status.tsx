import { AlertCircle, Ban, Check, CheckCheck, Clock, Headphones } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';

/** Every ack of SPEC section 3, as a tick with a spoken label. */
export const ackLabels: Record<number, string> = {
  [-2]: 'Erro no envio',
  [-1]: 'Apagada',
  0: 'Enviando',
  1: 'Enviada',
  2: 'Entregue',
  3: 'Lida',
  4: 'Reproduzida',
};

export function AckStatus({ ack, className }: { ack: number; className?: string }) {
  const label = ackLabels[ack] ?? ackLabels[0]!;
  const icon = (() => {
    switch (ack) {
      case -2:
        return <AlertCircle className="size-3.5 text-danger" aria-hidden="true" />;
      case -1:
        return <Ban className="size-3.5" aria-hidden="true" />;
      case 1:
        return <Check className="size-3.5" aria-hidden="true" />;
      case 2:
        return <CheckCheck className="size-3.5" aria-hidden="true" />;
      case 3:
        return <CheckCheck className="size-3.5 text-sky-600 dark:text-sky-400" aria-hidden="true" />;
      case 4:
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
