/**
 * 'Conectar com número de telefone', inside the QR modal: for a business whose only phone is the
 * one to pair (it cannot read a QR shown on its own screen). The admin types the number, the
 * worker's session asks WhatsApp for an 8-character code, and the code arrives live
 * (`service.UPDATED`) to be typed on the phone.
 */
import { useState } from 'react';
import { Smartphone } from 'lucide-react';
import { formatPairingCode, servicePairingPayload, type ServicePairing } from '#contracts/pairing.ts';
import { shownMessage } from '#contracts/errors.ts';
import type { Service } from '#contracts/services.ts';
import { Button } from '#web/components/ui/button.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { Alert } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useSchemaForm } from '#web/lib/form.ts';
import { useServiceAction } from '#web/features/services/api/service-action.ts';
import { usePairByPhone } from '#web/features/services/api/pair-by-phone.ts';

/** Whether the connection is waiting to be paired, so it may switch to a code. */
export function canPairByPhone(service: Service): boolean {
  return service.type === 'whatsapp' && (service.status === 'isOnQrCode' || service.status === 'starting');
}

/** The switch under the QR. */
export function PairByPhoneSwitch({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="outline" size="sm" onClick={onClick}>
      <Smartphone className="size-4" aria-hidden="true" /> Conectar com número de telefone
    </Button>
  );
}

function PairingCodeShown({ code }: { code: string }) {
  return (
    <div className="space-y-4">
      <div className="rounded-xl border border-border bg-surface-2 px-4 py-5 text-center">
        <p className="text-sm font-medium text-fg-muted" id="pairing-code-label">
          Código de pareamento
        </p>
        <p className="mt-1 font-mono text-4xl font-bold tracking-[0.15em] text-fg select-all sm:text-5xl" aria-describedby="pairing-code-label">
          {formatPairingCode(code)}
        </p>
      </div>
      <ol className="list-decimal space-y-1.5 pl-5 text-sm text-fg">
        <li>Abra o WhatsApp no celular com o número informado.</li>
        <li>
          Toque em <strong>Mais opções</strong> (Android) ou <strong>Configurações</strong> (iPhone) e depois em <strong>Aparelhos conectados</strong>.
        </li>
        <li>
          Toque em <strong>Conectar aparelho</strong> e depois em <strong>Conectar com número de telefone</strong>.
        </li>
        <li>Digite o código acima no celular.</li>
      </ol>
      <p className="text-xs text-fg-muted">O código vale por alguns minutos. Se ele expirar, um novo código aparece aqui.</p>
    </div>
  );
}

type Values = { phoneNumber: string };

/** The phone number form, then the code (or 'Gerando o código…' until it arrives). */
export function PairByPhone({ service, onBackToQr }: { service: Service; onBackToQr: () => void }) {
  const pair = usePairByPhone(service.id);
  const restart = useServiceAction();
  const [asked, setAsked] = useState(false);
  const form = useSchemaForm<Values, ServicePairing>(servicePairingPayload, { phoneNumber: '' }, 'pairing');
  const code = service.data.pairingCode;
  const waiting = !code && asked && service.status === 'starting';
  const failure = pair.error && !(pair.error instanceof ApiError && pair.error.details.length) ? shownMessage(pair.error.message) : null;

  const onSubmit = form.handleSubmit(() => {
    // The typed number goes as typed: the server reads it with the same rules.
    pair.mutate(
      { phoneNumber: form.getValues('phoneNumber') },
      {
        onSuccess: () => setAsked(true),
        onError: (error) => {
          if (error instanceof ApiError && error.details.length) form.setServerErrors(error.details);
        },
      },
    );
  });
  // A run that pairs by code shows no QR: going back starts a new run, which shows one.
  const backToQr = () => {
    if (code || asked) restart.mutate({ id: service.id, action: 'restart' }, { onSuccess: onBackToQr });
    else onBackToQr();
  };

  return (
    <div className="space-y-4">
      <h3 className="text-base font-semibold text-fg">Conectar com número de telefone</h3>
      <div aria-live="polite">
        {code ? (
          <PairingCodeShown code={code} />
        ) : waiting ? (
          <p className="flex items-center justify-center gap-2 py-6 text-sm text-fg-muted">
            <Spinner className="size-4 text-brand" /> Gerando o código…
          </p>
        ) : null}
      </div>
      {!code && !waiting ? (
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <InputField
            label="Número de telefone do WhatsApp"
            required
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="(11) 91234-5678"
            hint="O número do celular com o WhatsApp da empresa, com DDD. Para outro país, comece com + e o código do país."
            {...form.field('phoneNumber')}
          />
          {failure ? <Alert tone="danger">{failure}</Alert> : null}
          <Button type="submit" className="w-full" loading={pair.isPending} loadingText="Pedindo o código...">
            Gerar código
          </Button>
        </form>
      ) : null}
      <div className="flex justify-center">
        <Button variant="link" size="sm" onClick={backToQr} loading={restart.isPending} loadingText="Voltando ao código QR...">
          Voltar ao código QR
        </Button>
      </div>
    </div>
  );
}
