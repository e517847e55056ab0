import { Button } from './button.tsx';

/** A modal form's footer: 'Cancelar' and the submit button, 'Atualizar' when editing, else 'Criar'. */
export function FormActions({ onCancel, saving, editing }: { onCancel: () => void; saving: boolean; editing: boolean }) {
  return (
    <div className="flex justify-end gap-2 pt-2">
      <Button variant="outline" onClick={onCancel}>
        Cancelar
      </Button>
      <Button type="submit" loading={saving}>
        {editing ? 'Atualizar' : 'Criar'}
      </Button>
    </div>
  );
}
