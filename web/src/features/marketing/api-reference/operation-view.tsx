import type { ReactNode } from 'react';
import { cn } from '#web/lib/cn.ts';
import { InlineText } from './inline-text.tsx';
import { type OpenApiDocument, type ReferenceOperation, resolveResponse } from './reference-model.ts';
import { SchemaFields } from './schema-fields.tsx';

/** A block of code or JSON, scrollable sideways (and reachable by keyboard) on a phone. */
export function CodeBlock({ label, children }: { label: string; children: string }) {
  return (
    <section
      aria-label={label}
      className="overflow-x-auto rounded-xl border border-border bg-bg-subtle focus-visible:outline-2 focus-visible:outline-ring"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a horizontally scrollable region must be focusable for keyboard users (WCAG 2.1.1)
      tabIndex={0}
    >
      <pre className="w-max min-w-full p-4 font-mono text-[13px] leading-6 text-fg">
        <code>{children}</code>
      </pre>
    </section>
  );
}

export function MethodBadge({ method }: { method: string }) {
  return (
    <span className="inline-flex w-16 shrink-0 justify-center rounded-md border border-border-strong bg-bg-subtle px-1.5 py-0.5 font-mono text-xs font-semibold text-fg">
      {method}
    </span>
  );
}

/** A part's title: a heading in an operation's card, bold text inside a collapsed row (no headings there). */
function PartTitle({ heading, children }: { heading: boolean; children: ReactNode }) {
  const className = 'mt-5 mb-2 text-sm font-semibold text-fg';
  return heading ? <h4 className={className}>{children}</h4> : <p className={className}>{children}</p>;
}

const link = 'font-medium text-brand underline underline-offset-4';

const where = { path: 'no caminho', query: 'na URL' } as const;

/** What an operation takes and answers: who may call, parameters, body, answers, errors and examples. */
export function OperationDetails({ document, entry, headings }: { document: OpenApiDocument; entry: ReferenceOperation; headings: boolean }) {
  const { operation } = entry;
  const body = operation.requestBody?.content['application/json'];
  const statuses = Object.keys(operation.responses);
  const successes = statuses.filter((s) => s.startsWith('2'));
  const errors = statuses.filter((s) => !s.startsWith('2'));
  return (
    <div className="text-sm text-fg-muted">
      <p>
        <InlineText text={operation.description} />
      </p>

      {operation.parameters?.length ? (
        <>
          <PartTitle heading={headings}>Parâmetros</PartTitle>
          <ul className="divide-y divide-border">
            {operation.parameters.map((parameter) => (
              <li key={`${parameter.in}-${parameter.name}`} className="py-2">
                <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                  <code className="font-mono text-[13px] font-semibold text-fg">{parameter.name}</code>
                  <span className="text-xs">{where[parameter.in]}</span>
                  {parameter.required ? <span className="rounded border border-border-strong px-1.5 text-xs font-medium text-fg">obrigatório</span> : null}
                </div>
                {parameter.description ? (
                  <p className="mt-1 break-words">
                    <InlineText text={parameter.description} />
                  </p>
                ) : null}
                {parameter.content ? (
                  <p className="mt-1">
                    Veja{' '}
                    <a className={link} href="#listas">
                      Consultas de lista
                    </a>
                    .
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}

      {body ? (
        <>
          <PartTitle heading={headings}>Corpo da requisição (JSON{operation.requestBody?.required ? '' : ', opcional'})</PartTitle>
          {operation.requestBody?.description ? (
            <p className="mb-2">
              <InlineText text={operation.requestBody.description} />
            </p>
          ) : null}
          <SchemaFields document={document} schema={body.schema} />
        </>
      ) : null}

      <PartTitle heading={headings}>Respostas</PartTitle>
      <ul className="space-y-2">
        {successes.map((status) => {
          const response = resolveResponse(document, operation.responses[status] ?? {});
          const schema = response.content?.['application/json']?.schema;
          const documented = schema && Object.keys(schema).length > 0;
          return (
            <li key={status}>
              <span className="font-mono text-[13px] font-semibold text-fg">{status}</span> {documented ? 'JSON: ' : null}
              <InlineText text={response.description ?? ''} />
              {documented ? (
                <details className="mt-2 rounded-xl border border-border px-3 py-2">
                  <summary className="cursor-pointer font-medium text-fg">Campos da resposta</summary>
                  <SchemaFields document={document} schema={schema} />
                </details>
              ) : null}
            </li>
          );
        })}
        <li>
          Erros: {errors.join(', ')} (veja{' '}
          <a className={link} href="#erros">
            Erros
          </a>
          )
        </li>
      </ul>

      {operation['x-codeSamples']?.length ? (
        <>
          <PartTitle heading={headings}>Exemplos</PartTitle>
          <div className="space-y-3">
            {operation['x-codeSamples'].map((sample) => (
              <div key={sample.label}>
                <p className="mb-1 text-xs font-semibold tracking-wide text-fg uppercase">{sample.label}</p>
                <CodeBlock label={`Exemplo em ${sample.label}: ${entry.method} ${entry.path}`}>{sample.source}</CodeBlock>
              </div>
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}

/** The line that names an operation: method, path and summary. */
export function OperationLine({ entry, className }: { entry: ReferenceOperation; className?: string }) {
  return (
    <span className={cn('flex flex-wrap items-center gap-x-3 gap-y-1', className)}>
      <MethodBadge method={entry.method} />
      <code className="font-mono text-[13px] font-semibold break-all text-fg">{entry.path}</code>
      <span className="text-fg-muted">{entry.operation.summary}</span>
    </span>
  );
}
