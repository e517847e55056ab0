import { useRef, type ReactNode } from 'react';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';

/**
 * A question before a destructive action ('Excluir etiqueta?'): 'Cancelar' has the focus, the
 * action button is red and shows its progress.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  busy,
  onConfirm,
  onClose,
}: {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open
      onClose={onClose}
      role="alertdialog"
      size="sm"
      initialFocusRef={cancelRef}
      title={title}
      description={message}
      footer={
        <>
          <Button ref={cancelRef} variant="outline" onClick={onClose}>
            Cancelar
          </Button>
          <Button variant="danger" loading={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    />
  );
}
