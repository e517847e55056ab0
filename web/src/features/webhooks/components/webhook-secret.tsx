import type { WebhookSubscriptionWithSecret } from '#contracts/webhooks.ts';
import { SecretShownOnce } from '#web/components/secret-shown-once.tsx';

/** A webhook's signing secret, shown once (on creation and on 'Gerar novo segredo'). */
export function WebhookSecretShownOnce({ created, onClose }: { created: WebhookSubscriptionWithSecret; onClose: () => void }) {
  return (
    <SecretShownOnce
      id="webhook-secret"
      secret={created.secret}
      label={`Segredo de assinatura de ${created.url}`}
      warningTitle="Copie o segredo agora"
      warning="Ele não será mostrado de novo. Use-o no sistema que recebe os eventos para conferir a assinatura (cabeçalho Conversa-Signature) de cada entrega."
      copyLabel="Copiar segredo"
      copiedStatus="Segredo copiado para a área de transferência"
      onClose={onClose}
    />
  );
}
