import { useState } from 'react';
import { Check, Copy } from 'lucide-react';
import type { WebhookSubscriptionWithSecret } from '#contracts/webhooks.ts';
import { Button } from '#web/components/ui/button.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { Alert } from '#web/components/ui/misc.tsx';

/** A webhook's signing secret, shown once (on creation and on 'Gerar novo segredo'). */
export function WebhookSecretShownOnce({ created, onClose }: { created: WebhookSubscriptionWithSecret; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(created.secret).then(() => setCopied(true));
  };
  return (
    <div className="space-y-4">
      <Alert tone="warning" title="Copie o segredo agora">
        Ele não será mostrado de novo. Use-o no sistema que recebe os eventos para conferir a assinatura (cabeçalho Conversa-Signature) de cada entrega.
      </Alert>
      <InputField
        id="webhook-secret"
        label={`Segredo de assinatura de ${created.url}`}
        value={created.secret}
        readOnly
        className="font-mono text-xs"
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={copy}>
          {copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
          {copied ? 'Copiado' : 'Copiar segredo'}
        </Button>
        <Button onClick={onClose}>Concluir</Button>
      </div>
      <p className="sr-only" role="status">
        {copied ? 'Segredo copiado para a área de transferência' : ''}
      </p>
    </div>
  );
}
