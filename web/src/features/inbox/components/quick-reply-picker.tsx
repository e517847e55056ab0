import type { Ref } from 'react';
import { Link } from 'react-router';
import { cn } from '#web/lib/cn.ts';
import type { QuickReplyPickerModel } from '#web/features/inbox/hooks/use-quick-reply-picker.ts';

const stateTexts = {
  loading: 'Carregando respostas rápidas...',
  error: 'Não foi possível carregar as respostas rápidas.',
  none: 'Nenhuma resposta rápida cadastrada ainda.',
  empty: 'Nenhuma resposta rápida com esse atalho.',
} as const;

/**
 * The `/atalho` popup over the composer: a listbox whose active option the text box names by
 * `aria-activedescendant` (focus never leaves the box), or what to do when there is nothing to list.
 * Options are picked by click too; mouse down keeps the focus in the box.
 */
export function QuickReplyPicker({ picker, ref }: { picker: QuickReplyPickerModel; ref?: Ref<HTMLDivElement> }) {
  const { state, options, active, listId, optionId } = picker;
  const count = options.length;
  return (
    <div
      ref={ref}
      className="absolute right-2 bottom-full left-2 z-20 mb-2 overflow-hidden rounded-xl border border-border bg-surface shadow-pop sm:right-auto sm:w-[28rem]"
      data-testid="quick-reply-picker"
    >
      <div className="flex items-center justify-between gap-3 border-b border-border px-3 py-1.5 text-xs text-fg-muted">
        <span id={`${listId}-label`} className="font-semibold">
          Respostas rápidas
        </span>
        <span className="max-sm:hidden" aria-hidden="true">
          ↑↓ escolher · Enter ou Tab usar · Esc fechar
        </span>
      </div>
      {state === 'list' ? (
        <ul
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the combobox pattern's listbox, driven from the text box with aria-activedescendant
          role="listbox"
          id={listId}
          aria-labelledby={`${listId}-label`}
          className="max-h-64 overflow-y-auto py-1"
        >
          {options.map((reply, index) => (
            // biome-ignore lint/a11y/useFocusableInteractive lint/a11y/useKeyWithClickEvents: an option: focus stays in the text box, whose arrows, Enter and Tab drive it (aria-activedescendant); the click is for the mouse
            <li
              key={reply.id}
              id={optionId(index)}
              // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: an option of the picker's listbox
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => event.preventDefault()}
              onMouseMove={() => index !== active && picker.setActive(index)}
              onClick={() => picker.pick(reply)}
              className={cn('cursor-pointer px-3 py-2 text-sm', index === active ? 'bg-brand-soft text-brand-soft-fg' : 'text-fg')}
            >
              <span className="block font-semibold">/{reply.shortcut}</span>
              <span className={cn('line-clamp-2 block text-xs', index === active ? 'text-brand-soft-fg' : 'text-fg-muted')}>{picker.preview(reply)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <div role="status" className={state === 'list' ? 'sr-only' : cn('px-3 pt-3 text-sm text-fg-muted', state === 'none' ? 'pb-1' : 'pb-3')}>
        {state === 'list' ? `${count} ${count === 1 ? 'resposta rápida' : 'respostas rápidas'}` : stateTexts[state]}
      </div>
      {state === 'none' ? (
        <p className="px-3 pb-3 text-sm text-fg-muted">
          {picker.isAdmin ? (
            <Link to="/quick-replies" className="font-medium text-brand underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-ring">
              Criar respostas rápidas
            </Link>
          ) : (
            'Peça a um administrador para criar respostas rápidas.'
          )}
        </p>
      ) : null}
    </div>
  );
}
