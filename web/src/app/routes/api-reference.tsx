import { PageHero } from '#web/components/static-page.tsx';
import { ApiReference } from '#web/features/marketing/api-reference/api-reference.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

/** 'Referência da API' (/docs/api): the generated OpenAPI document, read (ADR-0238). */
export default function ApiReferencePage() {
  usePageMeta({
    title: 'Referência da API',
    description: 'A API REST do Conversa: tokens de API, permissões, limites, erros e cada rota com exemplos em curl e JavaScript.',
  });
  return (
    <>
      <PageHero eyebrow="Desenvolvedores" title="Referência da API">
        Conecte o Conversa ao seu ERP, ao n8n ou a qualquer sistema: leia e crie contatos, envie mensagens e receba eventos por webhooks, com um token de API e
        permissões sob medida.
      </PageHero>
      <ApiReference />
    </>
  );
}
