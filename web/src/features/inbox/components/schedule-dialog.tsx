import { useRef, useState, type ChangeEvent } from 'react';
import { Paperclip, X } from 'lucide-react';
import { uploadAccept } from '#contracts/files.ts';
import {
  scheduleMessagePayload,
  scheduleRepeatLabels,
  scheduleRepeats,
  type ScheduledMessage,
  type ScheduleMessagePayload,
  type ScheduleRepeat,
} from '#contracts/scheduled-messages.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { InputField, SelectField, TextareaField } from '#web/components/ui/field.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useSchemaForm } from '#web/lib/form.ts';
import { showToast } from '#web/lib/notify.ts';
import { requestUpload, uploadToUrl } from '#web/api/request-upload.ts';
import { useSaveScheduledMessage } from '#web/features/inbox/api/save-scheduled-message.ts';
import { addFiles } from './composer.tsx';

type Values = { contactId: string; text: string; fileId: string | null; date: string; time: string; repeat: ScheduleRepeat };

const repeatOptions = scheduleRepeats.map((value) => ({ value, label: scheduleRepeatLabels[value] }));

/** Tomorrow at 09:00 on this browser's clock: a starting point the person changes (the server reads it in the account's zone). */
function suggestedWhen(): { date: string; time: string } {
  const tomorrow = new Date(Date.now() + 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { date: `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}`, time: '09:00' };
}

/**
 * 'Agendar mensagem' (docs/product.md#scheduled-messages): a text and optionally one file (uploaded
 * as the composer's are) sent at a date and time of the account's zone, once or repeating; opened
 * with a schedule, it edits it.
 */
export function ScheduleDialog({
  contact,
  schedule,
  onClose,
}: {
  contact: { id: string; serviceId: string };
  schedule?: ScheduledMessage;
  onClose: () => void;
}) {
  const form = useSchemaForm<Values, ScheduleMessagePayload>(
    scheduleMessagePayload,
    {
      contactId: contact.id,
      text: schedule?.text ?? '',
      fileId: schedule?.file?.id ?? null,
      ...(schedule ? { date: schedule.date, time: schedule.time } : suggestedWhen()),
      repeat: schedule?.repeat ?? 'once',
    },
    'schedule',
  );
  const save = useSaveScheduledMessage(schedule?.id);
  const [fileName, setFileName] = useState<string | null>(schedule?.file?.name ?? null);
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = [...(event.target.files ?? [])].slice(0, 1);
    event.target.value = '';
    const { files, rejected } = addFiles([], picked);
    if (rejected.length) showToast({ tone: 'error', title: 'Arquivo não anexado', message: rejected.join('\n') });
    const chosen = files[0];
    if (!chosen) return;
    setUploading(true);
    try {
      const upload = await requestUpload({
        name: chosen.file.name,
        mimetype: chosen.mimetype,
        serviceId: contact.serviceId,
        length: chosen.file.size,
        isPtt: false,
      });
      await uploadToUrl(upload.urlToUpload, chosen.file, chosen.mimetype, () => undefined);
      form.setValue('fileId', upload.file.id, { shouldValidate: form.formState.isSubmitted });
      setFileName(chosen.file.name);
    } catch {
      showToast({ tone: 'error', title: 'Arquivo não anexado', message: `${chosen.file.name}: o envio falhou. Tente novamente.` });
    } finally {
      setUploading(false);
    }
  };
  const removeFile = () => {
    form.setValue('fileId', null, { shouldValidate: form.formState.isSubmitted });
    setFileName(null);
  };

  const onSubmit = form.handleSubmit((payload) =>
    save.mutate(payload, {
      onSuccess: (saved) => {
        showToast({ tone: 'success', title: schedule ? 'Agendamento atualizado' : `Mensagem agendada para ${saved.nextAtText ?? ''}` });
        onClose();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.details.length) form.setServerErrors(error.details);
      },
    }),
  );

  return (
    <Dialog open onClose={onClose} title={schedule ? 'Editar mensagem agendada' : 'Agendar mensagem'}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <TextareaField label="Mensagem" rows={4} maxLength={4096} placeholder="Ex.: Olá! Seu boleto vence amanhã." {...form.field('text')} />
        <div className="space-y-1.5">
          <span className="text-sm font-medium text-fg">Anexo (opcional)</span>
          {fileName ? (
            <div className="flex items-center justify-between gap-2 rounded-lg border border-border px-3 py-2 text-sm">
              <span className="min-w-0 truncate">{fileName}</span>
              <Button variant="ghost" size="icon" onClick={removeFile} aria-label={`Remover ${fileName}`}>
                <X className="size-4" aria-hidden="true" />
              </Button>
            </div>
          ) : (
            <Button variant="outline" size="sm" onClick={() => fileInput.current?.click()} loading={uploading}>
              <Paperclip className="size-4" aria-hidden="true" /> Anexar arquivo
            </Button>
          )}
          <input
            ref={fileInput}
            type="file"
            accept={uploadAccept}
            className="hidden"
            onChange={(e) => void onPick(e)}
            data-testid="schedule-file-input"
            aria-hidden="true"
            tabIndex={-1}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField label="Data" type="date" required {...form.field('date')} />
          <InputField label="Horário" type="time" required hint="No fuso horário da conta" {...form.field('time')} />
        </div>
        <SelectField label="Repetição" options={repeatOptions} {...form.field('repeat')} />
        {form.watch('repeat') === 'monthly' ? (
          <p className="text-xs text-fg-muted">Nos meses sem o dia escolhido (29, 30 ou 31), vai no último dia do mês.</p>
        ) : null}
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="outline" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" loading={save.isPending} disabled={uploading}>
            {schedule ? 'Salvar' : 'Agendar'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
