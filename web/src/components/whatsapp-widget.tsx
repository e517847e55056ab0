import { useEffect, useRef, useState } from 'react';
import { X } from 'lucide-react';
import { whatsappLink } from '#web/config/site.ts';
import { storage, storageKeys } from '#web/lib/storage.ts';
import { widgetVisibleMs } from './whatsapp-widget-timing.ts';
import { WhatsAppIcon } from './whatsapp-icon.tsx';

export const widgetTooltipText = 'Precisa de ajuda? Fale conosco pelo WhatsApp';

/**
 * The floating WhatsApp button (docs/product.md#screens): mounted 30 s after load by the root layout
 * (`LateWhatsAppWidget`, which fetches this module shortly before), shows at once and hides 8 s later
 * (held while the pointer or focus is on it), can be dismissed for good, makes no server call.
 */
export function WhatsAppWidget() {
  const [visible, setVisible] = useState(true);
  const [tooltip, setTooltip] = useState(false);
  const engaged = useRef(false);
  const hideDue = useRef(false);

  useEffect(() => {
    const hideTimer = setTimeout(() => {
      if (engaged.current) hideDue.current = true;
      else setVisible(false);
    }, widgetVisibleMs);
    return () => clearTimeout(hideTimer);
  }, []);

  if (!visible) return null;

  const engage = () => {
    engaged.current = true;
  };
  const release = () => {
    engaged.current = false;
    setTooltip(false);
    if (hideDue.current) {
      hideDue.current = false;
      setVisible(false);
    }
  };
  const dismiss = () => {
    storage.set(storageKeys.whatsappWidgetDismissed, 'true');
    setVisible(false);
  };

  return (
    <aside
      aria-label="Atendimento pelo WhatsApp"
      data-testid="whatsapp-widget"
      className="animate-enter fixed right-4 bottom-4 z-40 sm:right-6 sm:bottom-6"
      onMouseEnter={engage}
      onMouseLeave={release}
      onFocus={engage}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) release();
      }}
    >
      {tooltip ? (
        <button
          type="button"
          onClick={() => setTooltip(false)}
          className="animate-fade absolute right-0 bottom-full mb-3 w-max max-w-[15rem] rounded-xl bg-fg px-3.5 py-2.5 text-left text-sm font-medium text-bg shadow-pop"
          id="whatsapp-widget-tooltip"
        >
          {widgetTooltipText}
        </button>
      ) : null}
      <a
        href={whatsappLink()}
        target="_blank"
        rel="noopener noreferrer"
        aria-label="Fale conosco pelo WhatsApp (abre em nova aba)"
        aria-describedby={tooltip ? 'whatsapp-widget-tooltip' : undefined}
        onMouseEnter={() => setTooltip(true)}
        onFocus={() => setTooltip(true)}
        className="flex size-14 items-center justify-center rounded-full bg-[#128C7E] text-white shadow-pop transition-transform hover:scale-105 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      >
        <WhatsAppIcon className="size-7" />
      </a>
      <button
        type="button"
        onClick={dismiss}
        aria-label="Fechar atalho do WhatsApp"
        className="absolute -top-1.5 -left-1.5 flex size-6 items-center justify-center rounded-full border border-border bg-surface text-fg-muted shadow-card hover:text-fg focus-visible:outline-2 focus-visible:outline-ring"
      >
        <X className="size-3.5" aria-hidden="true" />
      </button>
    </aside>
  );
}
