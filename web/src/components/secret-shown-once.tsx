import { useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { Alert } from '#web/components/ui/misc.tsx';

/**
 * A secret the server answers once (an API token, a webhook's signing secret): the warning that
 * it will not be shown again, a read-only field that selects itself, 'Copiar' with its spoken
 * confirmation, and 'Concluir'.
 */
export function SecretShownOnce({
  id,
  secret,
  label,
  warningTitle,
  warning,
  copyLabel,
  copiedStatus,
  onClose,
}: {
  id: string;
  secret: string;
  label: string;
  warningTitle: string;
  warning: string;
  copyLabel: string;
  copiedStatus: string;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(secret).then(() => setCopied(true));
  };
  return (
    <div className="space-y-4">
      <Alert tone="warning" title={warningTitle}>
        {warning}
      </Alert>
      <InputField id={id} label={label} value={secret} readOnly className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={copy}>
          {copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
          {copied ? 'Copiado' : copyLabel}
        </Button>
        <Button onClick={onClose}>Concluir</Button>
      </div>
      <p className="sr-only" role="status">
        {copied ? copiedStatus : ''}
      </p>
    </div>
  );
}
