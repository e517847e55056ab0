/**
 * The API reference (/docs/api): how to get and send a token, the limits, list queries and errors,
 * then every operation of the generated OpenAPI document by area (ADR-0238).
 * The operations an API token can call are shown whole, with examples; the app's other routes
 * collapsed. Static: the page is prerendered, the document is bundled with it.
 */
import type { ReactNode } from 'react';
import { errorTexts } from '#contracts/errors.ts';
import openApiJson from './openapi.json' with { type: 'json' };
import { InlineText } from './inline-text.tsx';
import { CodeBlock, OperationDetails, OperationLine } from './operation-view.tsx';
import { type OpenApiDocument, referenceAreas } from './reference-model.ts';
import { SchemaFields } from './schema-fields.tsx';

const document = openApiJson as unknown as OpenApiDocument;
const areas = referenceAreas(document);
const tokenScheme = document.components.securitySchemes.apiToken as unknown as {
  'x-scopes': Record<string, string>;
  'x-rate-limit': { calls: number; windowSeconds: number };
};
const operations = areas.flatMap((area) => area.operations);
const listContacts = operations.find((o) => o.method === 'GET' && o.path === '/contacts');

const link = 'font-medium text-brand underline underline-offset-4';
const h2 = 'scroll-mt-24 text-2xl font-semibold tracking-tight text-fg';
const prose = 'space-y-4 text-[15px] leading-7 text-fg-muted [&_code]:font-mono [&_code]:text-[13px] [&_code]:text-fg';

const guideSections = [
  { id: 'primeiros-passos', label: 'Primeiros passos' },
  { id: 'autenticacao', label: 'Autenticação e permissões' },
  { id: 'limites', label: 'Limites de uso' },
  { id: 'listas', label: 'Consultas de lista' },
  { id: 'erros', label: 'Erros' },
];

/** A table's frame, scrollable sideways on a phone and then reachable by keyboard. */
function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <section
      aria-label={label}
      className="overflow-x-auto rounded-2xl border border-border focus-visible:outline-2 focus-visible:outline-ring"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a horizontally scrollable region must be focusable for keyboard users (WCAG 2.1.1)
      tabIndex={0}
    >
      {children}
    </section>
  );
}

function Contents() {
  return (
    <nav aria-label="Nesta página" className="rounded-2xl border border-border bg-surface p-5 text-sm">
      <p className="font-semibold text-fg">Nesta página</p>
      <ul className="mt-3 grid gap-x-6 gap-y-1.5 sm:grid-cols-2">
        {guideSections.map((s) => (
          <li key={s.id}>
            <a className={link} href={`#${s.id}`}>
              {s.label}
            </a>
          </li>
        ))}
      </ul>
      <p className="mt-5 font-semibold text-fg">Rotas por área</p>
      <ul className="mt-3 grid gap-x-6 gap-y-1.5 sm:grid-cols-2">
        {areas.map((area) => (
          <li key={area.anchor}>
            <a className={link} href={`#${area.anchor}`}>
              {area.name}
            </a>{' '}
            <span className="text-fg-muted">
              ({area.operations.length}
              {area.tokenCount ? `, ${area.tokenCount} com token` : ''})
            </span>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Guide() {
  const { calls, windowSeconds } = tokenScheme['x-rate-limit'];
  const errorResponses = Object.values(document.components.responses);
  return (
    <>
      <section aria-labelledby="primeiros-passos" className={prose}>
        <h2 id="primeiros-passos" className={h2}>
          Primeiros passos
        </h2>
        <p>
          A API do Conversa é a mesma que o app usa: JSON sobre HTTPS, no endereço em que você acessa o Conversa seguido de <code>/api</code>. Para conectar
          outro sistema (um ERP, o n8n, uma agenda):
        </p>
        <ol className="list-decimal space-y-2 pl-5">
          <li>
            Entre no Conversa como administrador e, em <strong className="text-fg">Minha conta</strong>, clique em{' '}
            <strong className="text-fg">Gerenciar tokens</strong> (a tela Tokens de API).
          </li>
          <li>
            Clique em <strong className="text-fg">Novo token</strong>, dê um nome que diga onde ele será usado e marque só as permissões de que a integração
            precisa.
          </li>
          <li>
            Copie o token (começa com <code>cvk_</code>): ele aparece uma única vez. Guarde-o como uma senha; se vazar, revogue-o na mesma tela.
          </li>
          <li>
            Envie-o em toda chamada no cabeçalho <code>Authorization: Bearer &lt;token&gt;</code>.
          </li>
        </ol>
        <p>
          Nos exemplos, <code>CONVERSA_URL</code> é o endereço do Conversa (sem <code>/api</code>) e <code>CONVERSA_TOKEN</code> é o token. Para listar os
          contatos:
        </p>
        {listContacts?.operation['x-codeSamples']?.[0] ? (
          <CodeBlock label="Exemplo: listar contatos com curl">{listContacts.operation['x-codeSamples'][0].source}</CodeBlock>
        ) : null}
        <p>
          O documento completo, no formato OpenAPI {document.openapi} (versão {document.info.version}), serve para gerar clientes e importar em ferramentas como
          o Postman:{' '}
          <a className={link} href="/openapi.json" download="conversa-openapi.json">
            baixar openapi.json
          </a>
          .
        </p>
      </section>

      <section aria-labelledby="autenticacao" className={prose}>
        <h2 id="autenticacao" className={h2}>
          Autenticação e permissões
        </h2>
        <p>
          Um token de API age em nome do administrador que o criou, só nas rotas que indicam uma das permissões dele. Uma rota sem permissão de token responde
          403 <code>{errorTexts.apiTokenRouteRefused}</code>; uma permissão que falta, 403 <code>{errorTexts.apiTokenScopeMissing}</code>. Um token revogado ou
          expirado responde 401.
        </p>
        <p>As demais rotas são as do app: aceitam só o token de acesso de uma sessão (o que o navegador recebe ao entrar), e estão aqui para referência.</p>
        <ScrollRegion label="Permissões de um token de API">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Permissões de um token de API e as rotas de cada uma</caption>
            <thead className="bg-bg-subtle text-fg">
              <tr>
                <th scope="col" className="px-4 py-2 font-semibold">
                  Permissão
                </th>
                <th scope="col" className="px-4 py-2 font-semibold">
                  Rotas
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {Object.entries(tokenScheme['x-scopes']).map(([scope, label]) => (
                <tr key={scope}>
                  <td className="px-4 py-2 align-top">
                    <code className="font-semibold text-fg">{scope}</code>
                    <br />
                    {label}
                  </td>
                  <td className="px-4 py-2 align-top">
                    <ul>
                      {operations
                        .filter((o) => o.operation['x-token-scope'] === scope)
                        .map((o) => (
                          <li key={o.anchor}>
                            <a className={link} href={`#${o.anchor}`}>
                              <code>
                                {o.method} {o.path}
                              </code>
                            </a>
                          </li>
                        ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </section>

      <section aria-labelledby="limites" className={prose}>
        <h2 id="limites" className={h2}>
          Limites de uso
        </h2>
        <p>
          Cada token faz até {calls} chamadas a cada {windowSeconds} segundos (janela deslizante). Acima disso a API responde 429{' '}
          <code>{errorTexts.apiTokenRateLimited}</code> com o cabeçalho <code>Retry-After</code>: os segundos até haver espaço de novo. Espere esse tempo antes
          de repetir a chamada.
        </p>
        <p>Toda chamada feita com um token fica registrada (rota, status e endereço de origem), e a tela Tokens de API mostra o último uso de cada um.</p>
      </section>

      <section aria-labelledby="listas" className={prose}>
        <h2 id="listas" className={h2}>
          Consultas de lista
        </h2>
        <p>
          As rotas de lista recebem um parâmetro <code>query</code> com um JSON codificado na URL:{' '}
          <code>{'{ where, include, order, page, perPage, withCount, after }'}</code>. Sem ele, vem a página 0 com 10 itens. A resposta é{' '}
          <code>{'{ data, totalCount }'}</code>.
        </p>
        <ul className="list-disc space-y-2 pl-5">
          <li>
            <code>where</code> filtra por campo (os campos de cada rota estão no parâmetro <code>query</code> dela): um valor é igualdade; um objeto usa{' '}
            <code>eq</code>, <code>ne</code>, <code>like</code>, <code>in</code>, <code>gt</code>, <code>gte</code>, <code>lt</code> e <code>lte</code>;{' '}
            <code>or</code> recebe uma lista de filtros. <code>like</code> usa <code>%</code> para qualquer trecho e ignora maiúsculas e acentos.
          </li>
          <li>
            <code>order</code> é uma lista de pares <code>[campo, 'ASC' | 'DESC']</code>; <code>perPage</code> vai até 500.
          </li>
          <li>
            Os contatos paginam por cursor: envie em <code>after</code> o <code>nextCursor</code> da resposta anterior, com <code>page</code> 0; ele é{' '}
            <code>null</code> depois da última página.
          </li>
        </ul>
      </section>

      <section aria-labelledby="erros" className={prose}>
        <h2 id="erros" className={h2}>
          Erros
        </h2>
        <p>
          Toda falha responde o status com o mesmo corpo: <code>{'{ statusCode, error, message, details? }'}</code>. Os dados inválidos (400) trazem em{' '}
          <code>details</code> cada campo e o motivo, em português.
        </p>
        <ul className="divide-y divide-border rounded-2xl border border-border bg-surface">
          {errorResponses.map((response) => {
            const example = response.content['application/json']?.example as { statusCode: number; error: string; message: string };
            return (
              <li key={example.statusCode} className="px-4 py-3">
                <p className="font-semibold text-fg">
                  {example.statusCode} {example.error}
                </p>
                <p>
                  <InlineText text={response.description ?? ''} /> Por exemplo: <code className="break-words">{example.message}</code>
                </p>
              </li>
            );
          })}
        </ul>
        <div className="rounded-2xl border border-border bg-surface p-4">
          <SchemaFields document={document} schema={{ $ref: '#/components/schemas/ErrorBody' }} />
        </div>
      </section>
    </>
  );
}

export function ApiReference() {
  return (
    <div className="mx-auto max-w-4xl space-y-14 px-4 py-12 sm:px-6 sm:py-16">
      <Contents />
      <Guide />
      {areas.map((area) => {
        const tokenOperations = area.operations.filter((o) => o.operation['x-token-scope']);
        const appOperations = area.operations.filter((o) => !o.operation['x-token-scope']);
        return (
          <section key={area.anchor} aria-labelledby={area.anchor} className="space-y-4">
            <h2 id={area.anchor} className={h2}>
              {area.name}
            </h2>
            {tokenOperations.map((entry) => (
              <article
                key={entry.anchor}
                id={entry.anchor}
                aria-labelledby={`${entry.anchor}-title`}
                className="scroll-mt-24 rounded-2xl border border-border bg-surface p-5 shadow-card"
              >
                <h3 id={`${entry.anchor}-title`} className="text-base font-semibold">
                  <OperationLine entry={entry} />
                </h3>
                <div className="mt-3">
                  <OperationDetails document={document} entry={entry} headings />
                </div>
              </article>
            ))}
            {appOperations.length ? (
              <>
                {tokenOperations.length ? <h3 className="pt-2 text-base font-semibold text-fg">Outras rotas (só com a sessão do app)</h3> : null}
                <ul className="divide-y divide-border rounded-2xl border border-border bg-surface">
                  {appOperations.map((entry) => (
                    <li key={entry.anchor} id={entry.anchor} className="scroll-mt-24">
                      <details className="group px-4 py-3">
                        <summary className="cursor-pointer rounded-md text-sm focus-visible:outline-2 focus-visible:outline-ring">
                          <OperationLine entry={entry} className="inline-flex" />
                        </summary>
                        <div className="mt-3">
                          <OperationDetails document={document} entry={entry} headings={false} />
                        </div>
                      </details>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}
