import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ArrowLeft, Download, FileUp } from 'lucide-react';
import { contactImportSettings, importFieldLabels, importFields, maxImportBytes, type ContactImport, type ImportField } from '#contracts/contact-imports.ts';
import { useAllDepartments } from '#web/api/departments.ts';
import { useAllTags } from '#web/api/tags.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { CheckboxField, InputField, SelectField } from '#web/components/ui/field.tsx';
import { Alert, Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/auth.ts';
import { reportError } from '#web/lib/errors.ts';
import { useContactImport, useContactImportPreview, useStartContactImport, useUploadContactImport } from '../api/contact-imports.ts';
import { useConnectionSearch } from '../api/search-connections.ts';
import { ContactImportHistory } from './contact-import-history.tsx';
import { countries } from './countries.ts';

const fieldOptions = importFields.map((field) => ({ value: field, label: importFieldLabels[field] }));
const number = (n: number) => n.toLocaleString('pt-BR');
/** A scrolling box keyboards can reach and scroll (as ListTable's `scrollLabel`). */
const scrollRegion = (label: string) => ({ tabIndex: 0, role: 'region', 'aria-label': label });

function Progress({ job }: { job: ContactImport }) {
  const percent = job.size > 0 ? Math.min(100, Math.round((job.bytesRead / job.size) * 100)) : 0;
  const label = job.status === 'checking' ? 'Verificando o arquivo' : 'Importando contatos';
  return (
    <div className="space-y-2" role="status">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="flex items-center gap-2 text-fg">
          <Spinner className="size-4 text-brand" /> {label}...
        </span>
        <span className="text-fg-muted tabular-nums">{number(job.rows)} linhas lidas</span>
      </div>
      <div
        className="h-2 overflow-hidden rounded-full bg-surface-2"
        role="progressbar"
        aria-label={label}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="h-full bg-brand transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/** The end of a check or of the import: the counts, the first rows left out and the whole list to download. */
function Summary({ job }: { job: ContactImport }) {
  const checked = job.status === 'checked';
  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <div className="rounded-xl bg-surface-2 p-4">
          <dt className="text-xs text-fg-muted">{checked ? 'Serão importados' : 'Importados'}</dt>
          <dd className="text-xl font-semibold text-fg tabular-nums" data-testid="import-accepted">
            {number(job.accepted)}
          </dd>
        </div>
        <div className="rounded-xl bg-surface-2 p-4">
          <dt className="text-xs text-fg-muted">Já existiam (ignorados)</dt>
          <dd className="text-xl font-semibold text-fg tabular-nums" data-testid="import-skipped">
            {number(job.skipped)}
          </dd>
        </div>
        <div className="rounded-xl bg-surface-2 p-4">
          <dt className="text-xs text-fg-muted">Com problema (não importados)</dt>
          <dd className="text-xl font-semibold text-fg tabular-nums" data-testid="import-rejected">
            {number(job.rejected)}
          </dd>
        </div>
      </dl>
      {job.problems.length ? (
        <div className="space-y-2">
          <h3 className="text-sm font-semibold text-fg">Linhas que não serão importadas</h3>
          <div className="max-h-72 overflow-auto rounded-xl border border-border" {...scrollRegion('Linhas que não serão importadas')}>
            <table className="w-full text-sm">
              <thead className="sticky top-0 bg-surface-2 text-left text-xs text-fg-muted">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Linha
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Motivo
                  </th>
                </tr>
              </thead>
              <tbody>
                {job.problems.map((problem) => (
                  <tr key={`${problem.line}-${problem.reason}`} className="border-t border-border" data-testid="import-problem">
                    <td className="px-3 py-2 text-fg-muted tabular-nums">{problem.line}</td>
                    <td className="px-3 py-2 text-fg">{problem.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {job.skipped + job.rejected > job.problems.length ? (
            <p className="text-xs text-fg-muted">
              Mostrando as primeiras {number(job.problems.length)} de {number(job.skipped + job.rejected)} linhas. A lista completa está no arquivo.
            </p>
          ) : null}
        </div>
      ) : null}
      {job.problemsUrl && job.skipped + job.rejected > 0 ? (
        <a href={job.problemsUrl} download className={buttonClasses('outline')}>
          <Download className="size-4" aria-hidden="true" /> Baixar linhas não importadas (CSV)
        </a>
      ) : null}
    </div>
  );
}

/** A zod refusal or the server's details, by the settings' field. */
type Problems = Partial<Record<'file' | 'mapping' | 'serviceId' | 'departmentId' | 'country' | 'tagIds', string>>;

function problemsOf(error: unknown): Problems | null {
  if (!(error instanceof ApiError) || !error.details.length) return null;
  const problems: Problems = {};
  for (const { path, message } of error.details) {
    const field = path.split('.')[0] as keyof Problems;
    problems[field] ??= message;
  }
  return problems;
}

/**
 * 'Importar contatos' (/contacts/import, admins): a CSV is uploaded, its columns mapped with a
 * preview of its first rows, checked (nothing written: every row left out with its line and
 * reason), then imported in the background with its progress and a summary (ADR-0223). The import
 * shown is the one its address names (`?id=`): 'Importações recentes' below reopens a running or
 * checked one, and a reload keeps it (ADR-0236).
 */
export function ContactImportScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const importId = searchParams.get('id');
  const setImportId = (id: string | null) => setSearchParams(id ? { id } : {}, { replace: true });
  const [started, setStarted] = useState(false);
  const [mapping, setMapping] = useState<ImportField[]>([]);
  const [serviceId, setServiceId] = useState('');
  const [country, setCountry] = useState('BR');
  const [departmentId, setDepartmentId] = useState('');
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [problems, setProblems] = useState<Problems>({});
  const [fileError, setFileError] = useState<string | undefined>();
  const [converting, setConverting] = useState(false);

  const { user } = useSession();
  const upload = useUploadContactImport();
  const preview = useContactImportPreview(importId);
  const start = useStartContactImport(importId);
  const status = useContactImport(importId);
  const connections = useConnectionSearch('', true);
  const tags = useAllTags();
  const departments = useAllDepartments();

  const whatsapp = useMemo(() => (connections.data?.data ?? []).filter((s) => s.type !== 'telegram'), [connections.data]);
  // A reopened import (or one that ran a pass here) shows the settings of its last pass, once; else the mapping its header suggests.
  const restored = useRef<string | null>(null);
  useEffect(() => {
    const job = status.data;
    if (!job?.settings || restored.current === job.id) return;
    restored.current = job.id;
    setMapping(job.settings.mapping);
    setServiceId(job.settings.serviceId);
    setCountry(job.settings.country);
    setDepartmentId(job.settings.departmentId ?? '');
    setTagIds(job.settings.tagIds);
  }, [status.data]);
  useEffect(() => {
    if (preview.data && restored.current !== importId) setMapping(preview.data.mapping);
  }, [preview.data, importId]);
  // Reopened from the list, whose link then goes: the focus goes to the screen's title, at the top.
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    setProblems({});
    setStarted(false);
    if (importId && document.activeElement === document.body) title.current?.focus();
  }, [importId]);
  useEffect(() => {
    if (!serviceId && whatsapp.length === 1) setServiceId(whatsapp[0]!.id);
  }, [serviceId, whatsapp]);

  const job = status.data ?? null;
  const running = job?.status === 'checking' || job?.status === 'importing';
  const done = job?.status === 'done';
  const locked = running || done;

  const chooseFile = async (chosen: File | undefined) => {
    setFileError(undefined);
    if (!chosen) return;
    if (/\.xls$/i.test(chosen.name)) return setFileError('Planilhas .xls antigas não são lidas: no Excel, salve como .xlsx ou CSV');
    if (!/\.(csv|xlsx)$/i.test(chosen.name)) return setFileError('Envie um arquivo .csv ou .xlsx');
    if (chosen.size > maxImportBytes) return setFileError(`Arquivo muito grande (máximo ${maxImportBytes / 1024 / 1024} MB)`);
    if (chosen.size === 0) return setFileError('O arquivo está vazio');
    let file = chosen;
    // An Excel workbook goes up as the CSV of its first sheet (ADR-0229); the reader loads only then.
    if (/\.xlsx$/i.test(chosen.name)) {
      setConverting(true);
      try {
        const { xlsxToCsvFile } = await import('../xlsx-to-csv.ts');
        file = await xlsxToCsvFile(chosen);
      } catch (error) {
        return setFileError(
          error instanceof Error && error.name === 'XlsxError' ? error.message : 'Não foi possível ler a planilha. Salve-a como CSV e tente de novo',
        );
      } finally {
        setConverting(false);
      }
      if (file.size > maxImportBytes) return setFileError(`A planilha convertida passa de ${maxImportBytes / 1024 / 1024} MB: divida-a em arquivos menores`);
    }
    setStarted(false);
    setImportId(null);
    upload.mutate(file, {
      onSuccess: (made) => setImportId(made.id),
      // A refused name or size is said on the field; anything else the catalogue's way.
      onError: (error) => (error instanceof ApiError && error.details.length ? setFileError(error.details[0]!.message) : reportError(error)),
    });
  };

  const run = (dryRun: boolean) => {
    const settings = { serviceId, mapping, tagIds, departmentId: departmentId || null, country, dryRun };
    const parsed = contactImportSettings.safeParse(settings);
    if (!parsed.success) {
      const found: Problems = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0]) as keyof Problems] ??= issue.message;
      setProblems(found);
      return;
    }
    setProblems({});
    start.mutate(settings, {
      onSuccess: () => setStarted(true),
      onError: (error) => {
        const details = problemsOf(error);
        if (details) setProblems(details);
        else reportError(error);
      },
    });
  };

  const header = preview.data?.header ?? [];
  if (user && !user.isAdmin) {
    return (
      <div className="mx-auto max-w-5xl px-4 py-8 sm:px-8">
        <Alert tone="warning" title="Importar contatos">
          Só administradores importam contatos. Peça a um administrador da conta.
        </Alert>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-8 sm:px-8">
      <div className="space-y-2">
        <Link to="/contacts" className="inline-flex items-center gap-1 text-sm text-fg-muted hover:text-fg">
          <ArrowLeft className="size-4" aria-hidden="true" /> Contatos
        </Link>
        <h1 ref={title} tabIndex={-1} className="text-2xl font-semibold tracking-tight text-fg focus:outline-none">
          Importar contatos
        </h1>
        <p className="text-sm text-fg-muted">
          Traga sua lista de clientes de uma planilha do Excel ou de um CSV. Antes de importar, a gente verifica cada linha e mostra o que não vai entrar.
        </p>
      </div>

      <Card className="space-y-4 p-6">
        <h2 className="text-base font-semibold text-fg">1. Arquivo</h2>
        <InputField
          id="import-file"
          type="file"
          label="Arquivo CSV ou Excel"
          accept=".csv,text/csv,.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          hint="Uma planilha do Excel (.xlsx, a primeira aba) ou um CSV separado por ponto e vírgula ou vírgula, até 20 MB."
          error={fileError}
          disabled={upload.isPending || converting || locked}
          className="py-2"
          onChange={(e) => void chooseFile(e.target.files?.[0])}
        />
        {converting ? (
          <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
            <Spinner className="size-4 text-brand" /> Lendo a planilha...
          </p>
        ) : null}
        {upload.isPending || preview.isLoading ? (
          <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
            <Spinner className="size-4 text-brand" /> Enviando e lendo o arquivo...
          </p>
        ) : null}
        {preview.error ? (
          <Alert tone="danger" title="Não foi possível ler o arquivo">
            {problemsOf(preview.error)?.file ?? 'Confira se ele é um CSV e tente de novo.'}
          </Alert>
        ) : null}
      </Card>

      {preview.data ? (
        <Card className="space-y-5 p-6">
          <div>
            <h2 className="text-base font-semibold text-fg">2. Colunas</h2>
            <p className="mt-1 text-sm text-fg-muted">
              Diga o que é cada coluna. As primeiras linhas do arquivo aparecem abaixo para conferir. O telefone é obrigatório; sem nome, o contato leva o
              número.
            </p>
          </div>
          <div className="overflow-x-auto rounded-xl border border-border" {...scrollRegion('Prévia do arquivo')}>
            <table className="w-full min-w-max text-sm">
              <thead className="bg-surface-2 text-left align-top">
                <tr>
                  {header.map((name, column) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position in the file
                    <th key={column} scope="col" className="min-w-40 px-3 py-2 font-normal">
                      <SelectField
                        id={`import-column-${column}`}
                        label={`Coluna "${name || `${column + 1}`}"`}
                        options={fieldOptions}
                        value={mapping[column] ?? 'ignore'}
                        disabled={locked}
                        onChange={(e) => setMapping((current) => current.map((field, i) => (i === column ? (e.target.value as ImportField) : field)))}
                      />
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.data.rows.map((row, r) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: preview rows are fixed for the file
                  <tr key={r} className="border-t border-border">
                    {row.map((cell, c) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a cell is its column
                      <td key={c} className={`max-w-60 truncate px-3 py-2 ${mapping[c] === 'ignore' ? 'text-fg-subtle' : 'text-fg'}`} title={cell}>
                        {cell || '—'}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {problems.mapping ? (
            <p className="text-xs font-medium text-danger" role="alert">
              {problems.mapping}
            </p>
          ) : null}
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <SelectField
              id="import-service"
              label="Conexão dos contatos"
              required
              placeholder="Escolha uma conexão do WhatsApp"
              options={whatsapp.map((s) => ({ value: s.id, label: s.name }))}
              value={serviceId}
              error={problems.serviceId}
              disabled={locked}
              onChange={(e) => setServiceId(e.target.value)}
            />
            <SelectField
              id="import-country"
              label="País dos números sem código do país"
              options={countries().map((c) => ({ value: c.code, label: `${c.name} (+${c.dial})` }))}
              value={country}
              error={problems.country}
              disabled={locked}
              onChange={(e) => setCountry(e.target.value)}
            />
            <SelectField
              id="import-department"
              label="Departamento"
              options={[{ value: '', label: 'Nenhum' }, ...(departments.data?.data ?? []).map((d) => ({ value: d.id, label: d.name }))]}
              value={departmentId}
              error={problems.departmentId}
              disabled={locked}
              onChange={(e) => setDepartmentId(e.target.value)}
            />
          </div>
          {tags.data?.data.length ? (
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium text-fg">Etiquetas para todos os contatos importados</legend>
              <div className="flex flex-wrap gap-x-6 gap-y-2">
                {tags.data.data.map((tag) => (
                  <CheckboxField
                    key={tag.id}
                    id={`import-tag-${tag.id}`}
                    label={tag.name}
                    checked={tagIds.includes(tag.id)}
                    disabled={locked}
                    onChange={(e) => setTagIds((current) => (e.target.checked ? [...current, tag.id] : current.filter((id) => id !== tag.id)))}
                  />
                ))}
              </div>
              {problems.tagIds ? (
                <p className="text-xs font-medium text-danger" role="alert">
                  {problems.tagIds}
                </p>
              ) : null}
            </fieldset>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button
              variant={job?.status === 'checked' ? 'outline' : 'primary'}
              loading={start.isPending && !started}
              disabled={locked}
              onClick={() => run(true)}
            >
              <FileUp className="size-4" aria-hidden="true" /> {job?.status === 'checked' ? 'Verificar de novo' : 'Verificar arquivo'}
            </Button>
          </div>
        </Card>
      ) : null}

      {job && job.status !== 'waiting' ? (
        <Card className="space-y-5 p-6" aria-live="polite">
          <h2 className="text-base font-semibold text-fg">3. {job.status === 'checking' || job.status === 'checked' ? 'Verificação' : 'Importação'}</h2>
          {running ? <Progress job={job} /> : <Summary job={job} />}
          {job.status === 'checked' ? (
            <div className="space-y-3 border-t border-border pt-4">
              {job.accepted > 0 ? (
                <p className="text-sm text-fg-muted">Nada foi gravado ainda. Confira o resultado e importe quando estiver tudo certo.</p>
              ) : (
                <Alert tone="warning" title="Nenhum contato para importar">
                  Revise as colunas ou o arquivo e verifique de novo.
                </Alert>
              )}
              {job.accepted > 0 ? (
                <Button loading={start.isPending} onClick={() => run(false)}>
                  Importar {number(job.accepted)} {job.accepted === 1 ? 'contato' : 'contatos'}
                </Button>
              ) : null}
            </div>
          ) : null}
          {done ? (
            <div className="flex flex-wrap gap-2 border-t border-border pt-4">
              <Link to="/contacts" className={buttonClasses('primary')}>
                Ver contatos
              </Link>
            </div>
          ) : null}
        </Card>
      ) : null}

      <ContactImportHistory currentId={importId} />
    </div>
  );
}
