import { useEffect, useRef, useState, type FormEvent } from 'react';
import { RotateCcw, Send } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { cn } from '#web/lib/cn.ts';
import type { ConnectionMenuDraft } from '#web/features/automations/menu-form.ts';
import { type PreviewNames, type PreviewState, previewReply, startPreview } from '#web/features/automations/menu-preview.ts';

/** 'Testar': the menu as the customer sees it, played from the form's current values; nothing is sent. */
export function MenuPreviewPanel({ draft, names }: { draft: ConnectionMenuDraft; names: PreviewNames }) {
  const [state, setState] = useState<PreviewState>(() => startPreview(draft));
  const [typed, setTyped] = useState('');
  const list = useRef<HTMLOListElement>(null);
  // The latest message in view, as in a chat.
  useEffect(() => {
    if (state.lines.length && list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [state.lines.length]);
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!typed.trim()) return;
    setState(previewReply(draft, state, typed, names));
    setTyped('');
  };
  return (
    <div className="space-y-3">
      <ol
        ref={list}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling conversation is read with the keyboard too.
        tabIndex={0}
        className="max-h-96 space-y-2 overflow-y-auto rounded-xl bg-surface-2 p-3 focus-visible:outline-2 focus-visible:outline-ring"
        aria-live="polite"
        aria-label="Conversa de teste"
        data-testid="menu-preview"
      >
        {state.lines.map((line, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines only grow; a restart replaces them all.
            key={i}
            className={cn(
              'w-fit max-w-[85%] whitespace-pre-wrap rounded-2xl px-3 py-2 text-sm',
              line.from === 'bot' && 'bg-surface text-fg shadow-sm',
              line.from === 'customer' && 'ml-auto bg-brand text-brand-fg',
              line.from === 'note' && 'mx-auto max-w-full bg-transparent text-center text-xs italic text-fg-muted',
            )}
          >
            <span className="sr-only">{line.from === 'bot' ? 'Empresa: ' : line.from === 'customer' ? 'Cliente: ' : ''}</span>
            {line.text}
          </li>
        ))}
      </ol>
      <form onSubmit={send} className="flex gap-2">
        <label htmlFor="menu-preview-input" className="sr-only">
          Resposta do cliente
        </label>
        <input
          id="menu-preview-input"
          value={typed}
          disabled={state.ended}
          placeholder={state.ended ? 'Fim do menu' : 'Digite como o cliente'}
          onChange={(e) => setTyped(e.target.value)}
          className="h-10 min-w-0 flex-1 rounded-lg border border-border-strong bg-surface px-3 text-sm text-fg placeholder:text-fg-subtle focus-visible:outline-2 focus-visible:outline-ring disabled:bg-surface-2"
        />
        <Button type="submit" size="icon" aria-label="Enviar" disabled={state.ended}>
          <Send className="size-4" aria-hidden="true" />
        </Button>
        <Button variant="outline" size="icon" aria-label="Recomeçar o teste" title="Recomeçar" onClick={() => setState(startPreview(draft))}>
          <RotateCcw className="size-4" aria-hidden="true" />
        </Button>
      </form>
    </div>
  );
}
