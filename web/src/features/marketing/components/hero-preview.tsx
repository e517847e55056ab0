import { Check, CheckCheck, Search, Send } from 'lucide-react';
import { WhatsAppIcon } from '#web/components/whatsapp-icon.tsx';

function TelegramIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden="true" fill="currentColor">
      <path d="M21.5 4.2 18.4 19c-.2 1-.8 1.3-1.7.8l-4.6-3.4-2.2 2.1c-.2.2-.5.4-1 .4l.3-4.7 8.6-7.8c.4-.3-.1-.5-.6-.2L6.6 12.9 2 11.5c-1-.3-1-1 .2-1.5L20.1 3c.8-.3 1.6.2 1.4 1.2Z" />
    </svg>
  );
}

const conversations = [
  { name: 'Ana Beatriz', text: 'Perfeito, pode separar o tamanho M!', time: '10:42', channel: 'whatsapp', unread: 2, active: true },
  { name: 'Carlos Eduardo', text: 'Qual o prazo de entrega para Campinas?', time: '10:31', channel: 'telegram', unread: 1 },
  { name: 'Padaria Pão Dourado', text: 'Recebemos o pedido, obrigado!', time: '09:58', channel: 'whatsapp' },
  { name: 'Fernanda Lima', text: 'Vocês abrem no feriado?', time: '09:12', channel: 'telegram' },
] as const;

/** A drawn, decorative preview of the inbox for the landing hero (no real data). */
export function HeroPreview() {
  return (
    <div
      role="img"
      aria-label="Prévia da caixa de entrada do Conversa: conversas de WhatsApp e Telegram à esquerda e o atendimento aberto à direita"
      className="relative"
    >
      <div className="overflow-hidden rounded-2xl border border-border bg-surface shadow-pop">
        <div className="flex items-center gap-1.5 border-b border-border bg-bg-subtle px-4 py-3" aria-hidden="true">
          <span className="size-2.5 rounded-full bg-[#ff5f57]" />
          <span className="size-2.5 rounded-full bg-[#febc2e]" />
          <span className="size-2.5 rounded-full bg-[#28c840]" />
          <span className="ml-3 h-5 flex-1 rounded-md bg-surface-2" />
        </div>
        <div className="grid grid-cols-1 sm:grid-cols-[15rem_1fr]" aria-hidden="true">
          <div className="border-border sm:border-r">
            <div className="p-3">
              <div className="flex h-8 items-center gap-2 rounded-lg bg-surface-2 px-2.5 text-xs text-fg-subtle">
                <Search className="size-3.5" /> Buscar contato
              </div>
            </div>
            <ul>
              {conversations.map((c) => (
                <li key={c.name} className={`flex items-center gap-3 px-3 py-2.5 ${'active' in c ? 'bg-brand-soft' : ''}`}>
                  <span className="relative flex size-9 shrink-0 items-center justify-center rounded-full bg-surface-2 text-xs font-semibold text-fg-muted">
                    {c.name
                      .split(' ')
                      .map((p) => p[0])
                      .slice(0, 2)
                      .join('')}
                    <span
                      className={`absolute -right-0.5 -bottom-0.5 flex size-4 items-center justify-center rounded-full text-white ring-2 ring-surface ${
                        c.channel === 'whatsapp' ? 'bg-[#128C7E]' : 'bg-[#2481cc]'
                      }`}
                    >
                      {c.channel === 'whatsapp' ? <WhatsAppIcon className="size-2.5" /> : <TelegramIcon className="size-2.5" />}
                    </span>
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="flex items-baseline justify-between gap-2">
                      <span className="truncate text-[13px] font-semibold text-fg">{c.name}</span>
                      <span className="text-[11px] text-fg-subtle">{c.time}</span>
                    </span>
                    <span className="flex items-center justify-between gap-2">
                      <span className="truncate text-xs text-fg-muted">{c.text}</span>
                      {'unread' in c ? (
                        <span className="flex size-4.5 shrink-0 items-center justify-center rounded-full bg-brand text-[10px] font-bold text-brand-fg">
                          {c.unread}
                        </span>
                      ) : null}
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          </div>
          <div className="hidden flex-col sm:flex">
            <div className="flex items-center gap-3 border-b border-border px-4 py-3">
              <span className="flex size-8 items-center justify-center rounded-full bg-surface-2 text-xs font-semibold text-fg-muted">AB</span>
              <span>
                <span className="block text-[13px] font-semibold text-fg">Ana Beatriz</span>
                <span className="block text-[11px] text-success">online</span>
              </span>
              <span className="ml-auto rounded-full bg-brand-soft px-2 py-0.5 text-[11px] font-medium text-brand-soft-fg">Vendas</span>
            </div>
            <div className="flex flex-1 flex-col gap-2.5 bg-bg-subtle p-4 pb-5">
              <p className="max-w-[75%] rounded-2xl rounded-tl-sm bg-surface px-3 py-2 text-[13px] text-fg shadow-sm">
                Oi! O vestido azul da vitrine ainda tem no tamanho M?
              </p>
              <p className="ml-auto max-w-[75%] rounded-2xl rounded-tr-sm bg-brand px-3 py-2 text-[13px] text-brand-fg shadow-sm">
                Olá, Ana! Tem sim 😊 Quer que eu separe para você retirar hoje?
                <span className="mt-1 flex items-center justify-end gap-1 text-[11px]">
                  10:40 <CheckCheck className="size-3" />
                </span>
              </p>
              <p className="max-w-[75%] rounded-2xl rounded-tl-sm bg-surface px-3 py-2 text-[13px] text-fg shadow-sm">Perfeito, pode separar o tamanho M!</p>
              <div className="mt-auto flex items-center gap-2 rounded-xl border border-border bg-surface px-3 py-2">
                <span className="flex-1 text-xs text-fg-subtle">Escreva uma mensagem...</span>
                <span className="flex size-7 items-center justify-center rounded-lg bg-brand text-brand-fg">
                  <Send className="size-3.5" />
                </span>
              </div>
            </div>
          </div>
        </div>
      </div>
      <div
        className="absolute -bottom-5 left-8 hidden items-center gap-2 rounded-xl border border-border bg-surface px-3.5 py-2.5 text-xs font-medium text-fg shadow-pop md:flex"
        aria-hidden="true"
      >
        <span className="flex size-5 items-center justify-center rounded-full bg-success-soft">
          <Check className="size-3.5 text-success" />
        </span>
        Respondido por Lucas em 2 minutos
      </div>
    </div>
  );
}

export { TelegramIcon };
