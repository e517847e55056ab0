/** Public facts about the company shown on the marketing pages (docs/product.md#screens). */
export const site = {
  name: 'Conversa',
  foundedYear: 2020,
  companiesServed: '2.000+',
  /** For sentences: 'mais de 2.000 empresas'. */
  companiesCount: '2.000',
  /** The company's WhatsApp number (international format, digits only). */
  whatsappNumber: '5511940028922',
  whatsappGreeting: 'Olá! Gostaria de receber mais informações sobre o Conversa para centralizar o atendimento da minha empresa no WhatsApp e no Telegram.',
  phoneDisplay: '(11) 4002-8922',
  phoneHref: 'tel:+551140028922',
  email: 'contato@conversa.app.br',
  supportEmail: 'suporte@conversa.app.br',
  privacyEmail: 'privacidade@conversa.app.br',
  address: {
    street: 'Av. Paulista, 1578 — 12º andar, Bela Vista',
    city: 'São Paulo — SP',
    zip: '01310-200',
  },
  hours: 'Todos os dias, das 8h às 18h',
  social: [
    { label: 'Instagram', href: 'https://www.instagram.com/conversa.app' },
    { label: 'LinkedIn', href: 'https://www.linkedin.com/company/conversa-app' },
    { label: 'YouTube', href: 'https://www.youtube.com/@conversa.app' },
  ],
  legalUpdatedAt: '8 de junho de 2025',
} as const;

export function whatsappLink(): string {
  return `https://wa.me/${site.whatsappNumber}?text=${encodeURIComponent(site.whatsappGreeting)}`;
}
