import { useEffect } from 'react';

export const siteName = 'Conversa';
const defaultDescription =
  'Centralize as conversas de WhatsApp e Telegram da sua empresa em uma caixa de entrada compartilhada. Comece grátis, sem cartão de crédito.';

function setMeta(attribute: 'name' | 'property', key: string, content: string): void {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    document.head.appendChild(element);
  }
  element.content = content;
}

/** Sets the page title, description and Open Graph tags for the current route. */
export function usePageMeta(meta: { title: string; description?: string; noindex?: boolean }): void {
  const { title, description = defaultDescription, noindex = false } = meta;
  useEffect(() => {
    const fullTitle = title.includes(siteName) ? title : `${title} | ${siteName}`;
    document.title = fullTitle;
    setMeta('name', 'description', description);
    setMeta('property', 'og:title', fullTitle);
    setMeta('property', 'og:description', description);
    setMeta('property', 'og:url', window.location.origin + window.location.pathname);
    setMeta('name', 'robots', noindex ? 'noindex' : 'index, follow');
  }, [title, description, noindex]);
}
