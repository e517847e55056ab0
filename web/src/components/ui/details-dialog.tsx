import { Fragment, type ReactNode } from 'react';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';
import { DialogLoading } from './spinner.tsx';

/** The rows of a record's details: label and value. */
export type DetailRow = [label: string, value: ReactNode, className?: string];

/** A read-only view of a record ('Visualização de ...'): its details as a list, and 'Fechar'. */
export function DetailsDialog({ title, rows, onClose }: { title: string; rows: DetailRow[] | undefined; onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} title={title} footer={<Button onClick={onClose}>Fechar</Button>}>
      {!rows ? (
        <DialogLoading />
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm">
          {rows.map(([label, value, className = 'text-fg']) => (
            <Fragment key={label}>
              <dt className="text-fg-muted">{label}</dt>
              <dd className={className}>{value}</dd>
            </Fragment>
          ))}
        </dl>
      )}
    </Dialog>
  );
}
