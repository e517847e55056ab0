import { useState } from 'react';
import { X } from 'lucide-react';
import { InputField, SelectField } from '#web/components/ui/field.tsx';
import { useContactSearch } from '#web/api/search-contacts.ts';
import { cn } from '#web/lib/cn.ts';
import { useSegments } from '#web/api/segments.ts';

/** Contacts a search shows at once; more are found by typing. */
const searchPageSize = 50;

export interface AudienceValue {
  kind: 'contacts' | 'segment';
  contactIds: string[];
  segmentId: string;
}

const radioClass = 'size-4 accent-brand focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';

/**
 * Who receives the campaign: contacts picked from a searchable list (their names kept beside the
 * ids to show the chosen ones), or a saved segment with its count of now.
 */
export function AudiencePicker({ value, error, onChange }: { value: AudienceValue; error?: string; onChange: (value: AudienceValue) => void }) {
  const [search, setSearch] = useState('');
  const [names, setNames] = useState<Record<string, string>>({});
  const contacts = useContactSearch(search, searchPageSize);
  const segments = useSegments();
  const chosen = new Set(value.contactIds);
  const segmentRows = segments.data?.data ?? [];

  const toggle = (id: string, name: string, on: boolean) => {
    setNames((current) => ({ ...current, [id]: name }));
    onChange({ ...value, contactIds: on ? [...value.contactIds, id] : value.contactIds.filter((c) => c !== id) });
  };

  return (
    <div className="space-y-4">
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-fg">Quem recebe</legend>
        <div className="flex flex-wrap gap-4">
          {(
            [
              ['contacts', 'Contatos escolhidos'],
              ['segment', 'Um segmento'],
            ] as const
          ).map(([kind, label]) => (
            <label key={kind} className="flex items-center gap-2 text-sm text-fg">
              <input
                type="radio"
                name="campaign-audience-kind"
                className={radioClass}
                checked={value.kind === kind}
                onChange={() => onChange({ ...value, kind })}
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>

      {value.kind === 'segment' ? (
        <SelectField
          id="campaign-segment"
          label="Segmento"
          placeholder={segmentRows.length ? 'Escolha um segmento' : 'Nenhum segmento salvo'}
          options={segmentRows.map((s) => ({ value: s.id, label: `${s.name} (${s.count} ${s.count === 1 ? 'contato' : 'contatos'})` }))}
          value={value.segmentId}
          onChange={(e) => onChange({ ...value, segmentId: e.target.value })}
          error={error}
          hint="Recebem os contatos que o segmento tiver quando a campanha começar. Crie segmentos em Contatos › Segmentos."
        />
      ) : (
        <div className="space-y-2">
          <InputField
            id="campaign-contact-search"
            label="Buscar contatos"
            type="search"
            placeholder="Nome do contato"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            hint={`${value.contactIds.length} ${value.contactIds.length === 1 ? 'contato escolhido' : 'contatos escolhidos'} (até 1000; para mais, use um segmento)`}
            error={error}
          />
          {value.contactIds.length ? (
            <ul className="flex flex-wrap gap-1.5" aria-label="Contatos escolhidos">
              {value.contactIds.map((id) => (
                <li key={id} className="inline-flex items-center gap-1 rounded-full bg-brand-soft py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-soft-fg">
                  {names[id] ?? 'Contato'}
                  <button
                    type="button"
                    className="rounded-full p-0.5 hover:bg-surface focus-visible:outline-2 focus-visible:outline-ring"
                    aria-label={`Remover ${names[id] ?? 'contato'}`}
                    onClick={() => toggle(id, names[id] ?? '', false)}
                  >
                    <X className="size-3.5" aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <ul className={cn('max-h-64 overflow-y-auto rounded-lg border border-border', error && 'border-danger')} aria-label="Resultados da busca de contatos">
            {(contacts.data?.data ?? []).map((contact) => (
              <li key={contact.id} className="border-b border-border last:border-b-0">
                <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-bg-subtle">
                  <input
                    type="checkbox"
                    className="size-4 shrink-0 accent-brand focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                    checked={chosen.has(contact.id)}
                    onChange={(e) => toggle(contact.id, contact.name, e.target.checked)}
                  />
                  <span className="min-w-0 flex-1 truncate text-fg">{contact.name}</span>
                  <span className="shrink-0 truncate text-xs text-fg-muted">{contact.service?.name ?? ''}</span>
                </label>
              </li>
            ))}
            {contacts.data && contacts.data.data.length === 0 ? <li className="px-3 py-2 text-sm text-fg-muted">Nenhum contato encontrado.</li> : null}
            {contacts.isPending ? <li className="px-3 py-2 text-sm text-fg-muted">Carregando...</li> : null}
          </ul>
        </div>
      )}
    </div>
  );
}
