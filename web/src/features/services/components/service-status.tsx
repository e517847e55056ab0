import { Link } from 'react-router';
import { QrCode } from 'lucide-react';
import { serviceStatusLabels } from '#contracts/service-labels.ts';
import type { Service } from '#contracts/services.ts';
import { Badge } from '#web/components/ui/misc.tsx';

/** The connection status display of docs/product.md#entities-and-states. */
export function ServiceStatus({ service, canReadQr = true }: { service: Service; canReadQr?: boolean }) {
  switch (service.status) {
    case 'starting':
      // While a session reconnects, the reason ('Reconectando ao WhatsApp…') sits under the badge, as a stop's does.
      return (
        <span className="space-y-0.5">
          <Badge className="bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300">{serviceStatusLabels.starting}</Badge>
          {service.statusReason ? <span className="block text-xs text-fg-muted">{service.statusReason}</span> : null}
        </span>
      );
    case 'connected':
      return <Badge tone="success">{serviceStatusLabels.connected}</Badge>;
    case 'isOnQrCode':
      return (
        <span className="flex flex-wrap items-center gap-2">
          <Badge tone="warning">{serviceStatusLabels.isOnQrCode}</Badge>
          {canReadQr && service.type !== 'whatsapp_cloud' ? (
            <Link
              to={`/services/${service.id}/qr-code`}
              className="inline-flex items-center gap-1 rounded-md text-xs font-semibold text-brand underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
            >
              <QrCode className="size-3.5" aria-hidden="true" /> Ver código QR
            </Link>
          ) : null}
        </span>
      );
    default:
      return (
        <span className="space-y-0.5">
          <Badge tone="danger">{serviceStatusLabels.disconnected}</Badge>
          {service.statusReason ? <span className="block text-xs text-fg-muted">{service.statusReason}</span> : null}
        </span>
      );
  }
}
