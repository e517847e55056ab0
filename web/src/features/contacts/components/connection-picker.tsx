import { useEffect, useId, useRef, useState, type Ref } from 'react';
import { ChevronDown } from 'lucide-react';
import type { Service } from '#contracts/services.ts';
import { FieldShell } from '#web/components/ui/field.tsx';
import { cn } from '#web/lib/cn.ts';
import { useConnectionSearch } from '#web/features/contacts/api/search-connections.ts';
import { ServiceTypeIcon } from './service-type-icon.tsx';

export interface PickedConnection {
  id: string;
  name: string;
  type: Service['type'];
}

/** An async searchable select (ARIA combobox): types to search the connections, 30 at a time. */
export function ConnectionPicker({
  id,
  inputRef,
  value,
  onChange,
  error,
  disabled,
}: {
  id: string;
  /** The text input, for the form to move focus to when the field is invalid. */
  inputRef?: Ref<HTMLInputElement>;
  value: PickedConnection | null;
  onChange: (value: PickedConnection) => void;
  error?: string;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [debounced, setDebounced] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const search = useConnectionSearch(debounced, open);
  const options = search.data?.data ?? [];

  useEffect(() => {
    const t = setTimeout(() => setDebounced(text), 250);
    return () => clearTimeout(t);
  }, [text]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search is the trigger: its first option becomes the active one
  useEffect(() => setActive(0), [debounced]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!wrapper.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const choose = (service: Service) => {
    onChange({ id: service.id, name: service.name, type: service.type });
    setText('');
    setOpen(false);
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) setOpen(true);
      else setActive((i) => Math.min(options.length - 1, i + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => Math.max(0, i - 1));
    } else if (e.key === 'Enter' && open) {
      e.preventDefault();
      const option = options[active];
      if (option) choose(option);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
    }
  };

  return (
    <FieldShell id={id} label="Conexão" error={error} required>
      <div className="relative" ref={wrapper}>
        <input
          ref={inputRef}
          id={id}
          name="serviceId"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && options[active] ? `${listId}-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          autoComplete="off"
          disabled={disabled}
          value={open ? text : (value?.name ?? '')}
          placeholder={value ? value.name : 'Buscar conexão...'}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
          }}
          onFocus={() => !disabled && setOpen(true)}
          onKeyDown={onKeyDown}
          className={cn(
            'block h-10 w-full rounded-lg border bg-surface pr-10 pl-3 text-sm text-fg placeholder:text-fg-subtle focus-visible:outline-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:bg-surface-2 disabled:text-fg-muted',
            error ? 'border-danger' : 'border-border-strong',
          )}
        />
        <ChevronDown className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-fg-muted" aria-hidden="true" />
        {open ? (
          <ul
            id={listId}
            // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA combobox pattern: a listbox of options, driven from the input with aria-activedescendant
            role="listbox"
            aria-label="Conexões"
            className="absolute z-30 mt-1 max-h-60 w-full overflow-y-auto rounded-lg border border-border bg-surface py-1 shadow-pop"
          >
            {search.isPending ? (
              <li className="px-3 py-2 text-sm text-fg-muted">Carregando...</li>
            ) : options.length === 0 ? (
              <li className="px-3 py-2 text-sm text-fg-muted">Nenhum registro encontrado</li>
            ) : (
              options.map((service, i) => (
                // biome-ignore lint/a11y/useFocusableInteractive lint/a11y/useKeyWithClickEvents: a combobox option: focus stays on the input, whose arrow keys and Enter drive it (aria-activedescendant); the click is for the mouse
                <li
                  key={service.id}
                  id={`${listId}-${i}`}
                  // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: an option of the combobox's listbox
                  role="option"
                  aria-selected={value?.id === service.id}
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => choose(service)}
                  onMouseEnter={() => setActive(i)}
                  className={cn('flex cursor-pointer items-center gap-2 px-3 py-2 text-sm text-fg', i === active && 'bg-surface-2')}
                >
                  <ServiceTypeIcon type={service.type} />
                  {service.name}
                </li>
              ))
            )}
          </ul>
        ) : null}
      </div>
    </FieldShell>
  );
}
