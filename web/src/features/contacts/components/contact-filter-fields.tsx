import type { Tag } from '#contracts/tags.ts';
import { InputField, SelectField } from '#web/components/ui/field.tsx';
import { useAllDepartments } from '#web/api/departments.ts';
import { useConnectionSearch } from '#web/features/contacts/api/search-connections.ts';
import type { ContactFilters, Either } from '#web/features/contacts/contact-filters.ts';

/** A select's 'any' choice, selectable again (a placeholder option would be disabled). */
const any = (label: string, options: { value: string; label: string }[]) => [{ value: '', label }, ...options];

const eitherOptions = (yes: string, no: string) => [
  { value: '', label: 'Todos' },
  { value: 'no', label: no },
  { value: 'yes', label: yes },
];

const none: never[] = [];

/**
 * The contacts' filter fields, shared by the Contatos screen's filters and a segment's editor
 * (ids prefixed by `idPrefix` so both may be on one page). The departments and connections are
 * asked for when the fields first show, not with the contacts list.
 */
export function ContactFilterFields({
  idPrefix,
  value,
  onChange,
  tags,
}: {
  idPrefix: string;
  value: ContactFilters;
  onChange: (next: ContactFilters) => void;
  tags: readonly Tag[];
}) {
  const departments = useAllDepartments().data?.data ?? none;
  const connections = useConnectionSearch('', true).data?.data ?? none;
  const set = <K extends keyof ContactFilters>(key: K, v: ContactFilters[K]) => onChange({ ...value, [key]: v });
  return (
    <>
      <InputField id={`${idPrefix}-name`} label="Nome" value={value.name} onChange={(e) => set('name', e.target.value)} />
      <InputField id={`${idPrefix}-email`} label="Email" value={value.email} onChange={(e) => set('email', e.target.value)} />
      <InputField id={`${idPrefix}-phone`} label="Telefone contém" inputMode="tel" value={value.phone} onChange={(e) => set('phone', e.target.value)} />
      <SelectField
        id={`${idPrefix}-tag`}
        label="Etiqueta"
        options={any(
          'Todas',
          tags.map((t) => ({ value: t.id, label: t.name })),
        )}
        value={value.tagId}
        onChange={(e) => set('tagId', e.target.value)}
      />
      <SelectField
        id={`${idPrefix}-department`}
        label="Departamento"
        options={any(
          'Todos',
          departments.map((d) => ({ value: d.id, label: d.name })),
        )}
        value={value.departmentId}
        onChange={(e) => set('departmentId', e.target.value)}
      />
      <SelectField
        id={`${idPrefix}-connection`}
        label="Conexão"
        options={any(
          'Todas',
          connections.map((c) => ({ value: c.id, label: c.name })),
        )}
        value={value.serviceId}
        onChange={(e) => set('serviceId', e.target.value)}
      />
      <InputField
        id={`${idPrefix}-active-after`}
        label="Última mensagem a partir de"
        type="date"
        value={value.activeAfter}
        onChange={(e) => set('activeAfter', e.target.value)}
      />
      <InputField
        id={`${idPrefix}-active-before`}
        label="Última mensagem antes de"
        type="date"
        value={value.activeBefore}
        onChange={(e) => set('activeBefore', e.target.value)}
      />
      <SelectField
        id={`${idPrefix}-archived`}
        label="Arquivados"
        options={eitherOptions('Só arquivados', 'Sem arquivados')}
        value={value.archived}
        onChange={(e) => set('archived', e.target.value as Either)}
      />
      <SelectField
        id={`${idPrefix}-opted-out`}
        label="Campanhas"
        options={eitherOptions('Só descadastrados', 'Sem descadastrados')}
        value={value.optedOut}
        onChange={(e) => set('optedOut', e.target.value as Either)}
      />
    </>
  );
}
