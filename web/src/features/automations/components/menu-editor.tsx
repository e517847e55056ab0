import { Plus, Trash2 } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { InputField, SelectField, TextareaField } from '#web/components/ui/field.tsx';
import { Card } from '#web/components/ui/misc.tsx';
import {
  blankOption,
  type ConnectionMenuDraft,
  type FieldErrors,
  freeKey,
  type MenuDraft,
  menuName,
  newMenuId,
  type OptionDraft,
  type OptionKind,
  optionKindLabels,
  withoutMenu,
} from '#web/features/automations/menu-form.ts';
import { MessageField } from './message-field.tsx';

type Choice = { value: string; label: string };

/**
 * The menus of a connection: the first one and its submenus, each with its text and options (a
 * number from 1 to 9, a name, and what it does). `onChange` gets the next draft and the paths whose
 * messages go (every message when rows moved).
 */
export function MenuEditor({
  draft,
  errors,
  readOnly,
  departments,
  users,
  onChange,
}: {
  draft: ConnectionMenuDraft;
  errors: FieldErrors;
  readOnly: boolean;
  departments: Choice[];
  users: Choice[];
  onChange: (draft: ConnectionMenuDraft, changed: string[] | 'all') => void;
}) {
  const setMenu = (i: number, menu: MenuDraft, changed: string[] | 'all') =>
    onChange({ ...draft, menus: draft.menus.map((m, k) => (k === i ? menu : m)) }, changed);
  const setOption = (i: number, j: number, change: Partial<OptionDraft>) => {
    const menu = draft.menus[i]!;
    const base = `menus.${i}.options.${j}`;
    setMenu(
      i,
      { ...menu, options: menu.options.map((o, k) => (k === j ? { ...o, ...change } : o)) },
      Object.keys(change).flatMap((f) => (f === 'key' || f === 'label' ? [`${base}.${f}`] : [`${base}.action.${f}`, `${base}.action`])),
    );
  };
  const addSubmenu = (): string => {
    const id = newMenuId(draft);
    return id;
  };

  return (
    <div className="space-y-4">
      {draft.menus.map((menu, i) => {
        const name = menuName(draft, menu.id);
        const submenus = draft.menus.filter((m) => m.id !== menu.id).map((m) => ({ value: m.id, label: menuName(draft, m.id) }));
        return (
          <Card key={menu.id} className="space-y-4 p-4 sm:p-6" role="region" aria-label={name} data-testid="menu-node">
            <div className="flex items-center justify-between gap-2">
              <h2 className="text-base font-semibold text-fg">{name}</h2>
              {readOnly || i === 0 ? null : (
                <Button variant="ghost" size="sm" onClick={() => onChange(withoutMenu(draft, menu.id), 'all')} aria-label={`Remover ${name}`}>
                  <Trash2 className="size-4" aria-hidden="true" /> Remover
                </Button>
              )}
            </div>
            {errors[`menus.${i}.id`] ? (
              <p className="text-xs font-medium text-danger" role="alert">
                {errors[`menus.${i}.id`]}
              </p>
            ) : null}
            <MessageField
              id={`menus-${i}-text`}
              label={i === 0 ? 'Texto do menu inicial' : `Texto do submenu ${i + 1}`}
              value={menu.text}
              error={errors[`menus.${i}.text`]}
              disabled={readOnly}
              onChange={(text) => setMenu(i, { ...menu, text }, [`menus.${i}.text`])}
            />
            <div className="space-y-3">
              <h3 className="text-sm font-semibold text-fg">Opções</h3>
              {errors[`menus.${i}.options`] ? (
                <p className="text-xs font-medium text-danger" role="alert">
                  {errors[`menus.${i}.options`]}
                </p>
              ) : null}
              {menu.options.map((option, j) => {
                const base = `menus.${i}.options.${j}`;
                const id = `menus-${i}-options-${j}`;
                const where = `opção ${j + 1} do ${i === 0 ? 'menu inicial' : `submenu ${i + 1}`}`;
                return (
                  <div
                    // biome-ignore lint/suspicious/noArrayIndexKey: options have no id of their own; removing one clears every message.
                    key={j}
                    className="grid gap-3 rounded-xl bg-surface-2 p-3 sm:grid-cols-[5rem_minmax(0,1fr)_auto] sm:items-start"
                    data-testid="menu-option"
                  >
                    <InputField
                      id={`${id}-key`}
                      label="Número"
                      aria-label={`Número da ${where}`}
                      inputMode="numeric"
                      maxLength={2}
                      value={option.key}
                      disabled={readOnly}
                      error={errors[`${base}.key`]}
                      onChange={(e) => setOption(i, j, { key: e.target.value })}
                    />
                    <InputField
                      id={`${id}-label`}
                      label="Nome"
                      aria-label={`Nome da ${where}`}
                      value={option.label}
                      disabled={readOnly}
                      error={errors[`${base}.label`]}
                      onChange={(e) => setOption(i, j, { label: e.target.value })}
                    />
                    {readOnly ? null : (
                      <Button
                        variant="ghost"
                        size="icon"
                        className="sm:mt-6"
                        aria-label={`Remover a ${where}`}
                        title="Remover opção"
                        onClick={() => setMenu(i, { ...menu, options: menu.options.filter((_, k) => k !== j) }, 'all')}
                      >
                        <Trash2 className="size-4" aria-hidden="true" />
                      </Button>
                    )}
                    <div className="grid gap-3 sm:col-span-3 sm:grid-cols-2 sm:items-start">
                      <SelectField
                        id={`${id}-kind`}
                        label="O que faz"
                        aria-label={`O que faz a ${where}`}
                        options={Object.entries(optionKindLabels).map(([value, label]) => ({ value, label }))}
                        value={option.kind}
                        disabled={readOnly}
                        error={errors[`${base}.action`]}
                        onChange={(e) => setOption(i, j, { kind: e.target.value as OptionKind })}
                      />
                      {option.kind === 'department' ? (
                        <SelectField
                          id={`${id}-department`}
                          label="Departamento"
                          aria-label={`Departamento da ${where}`}
                          placeholder="Escolha um departamento"
                          options={departments}
                          value={option.departmentId}
                          disabled={readOnly}
                          error={errors[`${base}.action.departmentId`]}
                          onChange={(e) => setOption(i, j, { departmentId: e.target.value })}
                        />
                      ) : null}
                      {option.kind === 'user' ? (
                        <SelectField
                          id={`${id}-user`}
                          label="Pessoa"
                          aria-label={`Pessoa da ${where}`}
                          placeholder="Escolha uma pessoa"
                          options={users}
                          value={option.userId}
                          disabled={readOnly}
                          error={errors[`${base}.action.userId`]}
                          onChange={(e) => setOption(i, j, { userId: e.target.value })}
                        />
                      ) : null}
                      {option.kind === 'submenu' ? (
                        <div className="flex flex-wrap items-end gap-2">
                          <div className="min-w-40 flex-1">
                            <SelectField
                              id={`${id}-submenu`}
                              label="Submenu"
                              aria-label={`Submenu da ${where}`}
                              placeholder="Escolha um submenu"
                              options={submenus}
                              value={option.menuId}
                              disabled={readOnly}
                              error={errors[`${base}.action.menuId`]}
                              onChange={(e) => setOption(i, j, { menuId: e.target.value })}
                            />
                          </div>
                          {readOnly ? null : (
                            <Button
                              variant="outline"
                              size="sm"
                              onClick={() => {
                                const menuId = addSubmenu();
                                const menus = draft.menus.map((m, k) =>
                                  k === i ? { ...m, options: m.options.map((o, l) => (l === j ? { ...o, menuId } : o)) } : m,
                                );
                                onChange({ ...draft, menus: [...menus, { id: menuId, text: `${option.label || 'Escolha'}:`, options: [blankOption('1')] }] }, [
                                  `${base}.action.menuId`,
                                ]);
                              }}
                            >
                              <Plus className="size-4" aria-hidden="true" /> Novo submenu
                            </Button>
                          )}
                        </div>
                      ) : null}
                      {option.kind === 'answer' ? (
                        <TextareaField
                          id={`${id}-text`}
                          label="Resposta"
                          aria-label={`Resposta da ${where}`}
                          value={option.text}
                          rows={2}
                          className="min-h-16"
                          disabled={readOnly}
                          error={errors[`${base}.action.text`]}
                          onChange={(e) => setOption(i, j, { text: e.target.value })}
                        />
                      ) : null}
                    </div>
                  </div>
                );
              })}
              {readOnly || menu.options.length >= 9 ? null : (
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => setMenu(i, { ...menu, options: [...menu.options, blankOption(freeKey(menu))] }, [`menus.${i}.options`])}
                >
                  <Plus className="size-4" aria-hidden="true" /> Adicionar opção{i === 0 ? '' : ` ao submenu ${i + 1}`}
                </Button>
              )}
            </div>
          </Card>
        );
      })}
      {readOnly || draft.menus.length >= 30 ? null : (
        <Button
          variant="outline"
          onClick={() => onChange({ ...draft, menus: [...draft.menus, { id: addSubmenu(), text: 'Escolha uma opção:', options: [blankOption('1')] }] }, [])}
        >
          <Plus className="size-4" aria-hidden="true" /> Adicionar submenu
        </Button>
      )}
    </div>
  );
}
