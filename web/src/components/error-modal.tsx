import { useRef } from 'react';
import { AlertTriangle } from 'lucide-react';
import { closeErrorModal, errorModalStore } from '#web/lib/notify.ts';
import { useStore } from '#web/lib/store.ts';
import { Button } from './ui/button.tsx';
import { Dialog } from './ui/dialog.tsx';

/** The error modal of docs/product.md#error-catalogue: a title, a message and 'Entendi'. */
export function ErrorModal() {
  const error = useStore(errorModalStore);
  const buttonRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open={error !== null}
      onClose={closeErrorModal}
      role="alertdialog"
      size="sm"
      hideClose
      initialFocusRef={buttonRef}
      title={
        <span className="flex items-center gap-2.5">
          <span className="flex size-9 items-center justify-center rounded-full bg-danger-soft text-danger">
            <AlertTriangle className="size-[18px]" aria-hidden="true" />
          </span>
          {error?.title}
        </span>
      }
      description={error?.message}
      footer={
        <Button ref={buttonRef} onClick={closeErrorModal} className="w-full sm:w-auto">
          Entendi
        </Button>
      }
    />
  );
}
