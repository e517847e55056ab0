import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { Eye, FileText, ListTree, LogOut, Pencil, Play, Plus, Power, QrCode, RotateCw } from 'lucide-react';
import { defaultPerPage } from '#contracts/list-query.ts';
import type { Service } from '#contracts/services.ts';
import { ButtonLink } from '#web/components/ui/button.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { FiltersCard, ListPageHeader, ListTable, rowActionClass, tdClass } from '#web/components/ui/list-page.tsx';

import { Pagination } from '#web/components/ui/pagination.tsx';
import { useSession } from '#web/lib/auth.ts';
import { servicesQuery, useServices } from '#web/features/services/api/get-services.ts';
import { serviceActionLabels, useServiceAction, type ServiceAction } from '#web/features/services/api/service-action.ts';
import { CloudNumberSummary } from './cloud-number.tsx';
import { ServiceStatus } from './service-status.tsx';
import { ServiceType } from './service-type.tsx';
import { useListFilters } from '#web/lib/use-list-filters.ts';
import { useRefreshFlag } from '#web/lib/use-refresh-flag.ts';

const actionIcons: Record<ServiceAction, ComponentType<{ className?: string; 'aria-hidden'?: boolean }>> = {
  start: Play,
  shutdown: Power,
  restart: RotateCw,
  logout: LogOut,
};

/** WhatsApp (API oficial) connects with Meta's credentials: no QR code, no pairing. */
function hasQrCode(service: Service): boolean {
  return service.type !== 'whatsapp_cloud';
}

function RowActions({ service, isAdmin }: { service: Service; isAdmin: boolean }) {
  const action = useServiceAction();
  const pending = action.isPending && action.variables?.id === service.id;
  return (
    <div className="flex flex-wrap items-center justify-end gap-0.5">
      <Link to={`/services/${service.id}/show`} className={rowActionClass} aria-label={`Visualizar ${service.name}`} title="Visualizar">
        <Eye className="size-4" aria-hidden="true" />
      </Link>
      <Link to={`/services/${service.id}/menu`} className={rowActionClass} aria-label={`Menu de atendimento de ${service.name}`} title="Menu de atendimento">
        <ListTree className="size-4" aria-hidden="true" />
      </Link>
      {service.type === 'whatsapp_cloud' ? (
        <Link
          to={`/services/${service.id}/templates`}
          className={rowActionClass}
          aria-label={`Modelos de mensagem de ${service.name}`}
          title="Modelos de mensagem"
        >
          <FileText className="size-4" aria-hidden="true" />
        </Link>
      ) : null}
      {isAdmin ? (
        <>
          <Link to={`/services/${service.id}/edit`} className={rowActionClass} aria-label={`Editar ${service.name}`} title="Editar">
            <Pencil className="size-4" aria-hidden="true" />
          </Link>
          {hasQrCode(service) ? (
            <Link to={`/services/${service.id}/qr-code`} className={rowActionClass} aria-label={`Ler código QR de ${service.name}`} title="Ler código QR">
              <QrCode className="size-4" aria-hidden="true" />
            </Link>
          ) : null}
          {(['start', 'shutdown', 'restart', 'logout'] as const).map((name) => {
            const Icon = actionIcons[name];
            return (
              <button
                key={name}
                type="button"
                className={rowActionClass}
                disabled={pending}
                onClick={() => action.mutate({ id: service.id, action: name })}
                aria-label={`${serviceActionLabels[name]} ${service.name}`}
                title={serviceActionLabels[name]}
              >
                <Icon className="size-4" aria-hidden={true} />
              </button>
            );
          })}
        </>
      ) : null}
    </div>
  );
}

/** The connections list of docs/product.md#screens. */
export function ServicesTable() {
  const { user } = useSession();
  const isAdmin = !!user?.isAdmin;
  const list = useListFilters('');
  const services = useServices(servicesQuery(list.applied, list.page));
  const rows = services.data?.data ?? [];

  useRefreshFlag('/services', services.refetch);

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-8">
      <ListPageHeader
        title="Conexões"
        description="Os números de WhatsApp e os bots de Telegram da sua conta."
        filtersOpen={list.open}
        onToggleFilters={list.toggle}
        onRefresh={() => void services.refetch()}
        refreshing={services.isFetching}
        actions={
          isAdmin ? (
            <ButtonLink to="/services/create">
              <Plus className="size-4" aria-hidden="true" /> Nova conexão
            </ButtonLink>
          ) : null
        }
      />
      {list.open ? (
        <FiltersCard columns="sm:grid-cols-[1fr_auto]" onApply={list.apply}>
          <InputField id="services-filter-name" label="Nome" value={list.draft} onChange={(e) => list.setDraft(e.target.value)} />
        </FiltersCard>
      ) : null}
      <ListTable
        minWidth="min-w-[720px]"
        loading={services.isPending}
        headings={['#', 'Nome', 'Tipo', 'Status']}
        pinActions={false}
        pager={
          <Pagination page={list.page} perPage={defaultPerPage} total={services.data?.totalCount ?? 0} onPageChange={list.setPage} idPrefix="services-pager" />
        }
      >
        {rows.map((service, i) => (
          <tr key={service.id} className="hover:bg-bg-subtle" data-testid="service-row">
            <td className={`${tdClass} text-fg-muted tabular-nums`}>{list.page * defaultPerPage + i + 1}</td>
            <td className={`${tdClass} font-medium`}>{service.name}</td>
            <td className={tdClass}>
              <ServiceType type={service.type} />
              <CloudNumberSummary service={service} />
            </td>
            <td className={tdClass}>
              <ServiceStatus service={service} canReadQr={isAdmin} />
            </td>
            <td className={`${tdClass} py-2`}>
              <RowActions service={service} isAdmin={isAdmin} />
            </td>
          </tr>
        ))}
      </ListTable>
    </div>
  );
}
