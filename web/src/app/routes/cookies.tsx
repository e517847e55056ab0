import { Link } from 'react-router';
import { PageHero, Prose } from '#web/components/static-page.tsx';
import { site } from '#web/config/site.ts';
import { usePageMeta } from '#web/lib/seo.ts';

const items = [
  { name: 'Sessão', key: 'conversa-auth', purpose: 'Mantém você conectado depois de entrar na sua conta.', kind: 'Necessário' },
  { name: 'Tema', key: 'conversa-theme', purpose: 'Lembra se você prefere o tema claro ou o escuro.', kind: 'Preferência' },
  { name: 'Menu lateral', key: 'conversa-sidebar-collapsed', purpose: 'Lembra se o menu lateral do app fica recolhido.', kind: 'Preferência' },
  {
    name: 'Atalho do WhatsApp',
    key: 'conversa-whatsapp-widget-dismissed',
    purpose: 'Lembra que você fechou o botão flutuante do WhatsApp.',
    kind: 'Preferência',
  },
];

export default function CookiesPage() {
  usePageMeta({ title: 'Política de cookies', description: 'Como o Conversa usa cookies e o armazenamento local do navegador.' });
  return (
    <>
      <PageHero eyebrow="Legal" title="Política de cookies" updatedAt={site.legalUpdatedAt}>
        Usamos o mínimo possível: só o que é necessário para o Conversa funcionar e para lembrar as suas preferências.
      </PageHero>
      <Prose>
        <h2>O que são cookies e armazenamento local</h2>
        <p>
          Cookies e armazenamento local são pequenas informações que um site guarda no seu navegador. O Conversa usa o armazenamento local do navegador; ele não
          é enviado para outros sites e você pode apagá-lo quando quiser.
        </p>
        <h2>O que guardamos</h2>
        <section
          className="mb-4 overflow-x-auto rounded-xl border border-border focus-visible:outline-2 focus-visible:outline-ring"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a horizontally scrollable region must be focusable for keyboard users (WCAG 2.1.1)
          tabIndex={0}
          aria-label="Tabela de informações guardadas no navegador"
        >
          <table className="w-full min-w-[32rem] text-left text-sm">
            <caption className="sr-only">Informações guardadas no navegador</caption>
            <thead className="bg-surface-2 text-fg">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Nome
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Finalidade
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Tipo
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {items.map((i) => (
                <tr key={i.key}>
                  <th scope="row" className="px-4 py-3 align-top font-medium text-fg">
                    {i.name}
                    <code className="mt-0.5 block text-xs font-normal text-fg-muted">{i.key}</code>
                  </th>
                  <td className="px-4 py-3 align-top">{i.purpose}</td>
                  <td className="px-4 py-3 align-top">{i.kind}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <h2>O que não fazemos</h2>
        <p>
          Não usamos cookies de publicidade nem de rastreamento entre sites, e não vendemos informações de navegação. O botão flutuante do WhatsApp não envia
          nada aos nossos servidores: ele só abre uma conversa no WhatsApp quando você clica.
        </p>
        <h2>Como apagar</h2>
        <p>
          Você pode apagar os dados guardados nas configurações do seu navegador, em “Privacidade” ou “Dados de sites”. Se apagar a sessão, será preciso entrar
          de novo na sua conta.
        </p>
        <h2>Dúvidas</h2>
        <p>
          Veja também a nossa <Link to="/privacy">Política de privacidade</Link> ou escreva para <a href={`mailto:${site.privacyEmail}`}>{site.privacyEmail}</a>
          .
        </p>
      </Prose>
    </>
  );
}
