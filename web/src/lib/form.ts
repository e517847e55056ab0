/**
 * Forms: react-hook-form checked by the contracts' zod schemas through `@hookform/resolvers/zod`
 * (ADR-0054), so the exact pt-BR messages come from `shared/contracts`. Validates
 * on submit, then live as the person corrects the fields, and moves focus to the first invalid one.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type DefaultValues, type FieldValues, type Path, type RegisterOptions, type Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A form whose inputs hold `Values` (strings and booleans) and whose schema answers `Output`, what
 * the submit handler gets. `field(name)` binds an input: id (`{idPrefix}-{name}`), name, ref,
 * handlers and its error message.
 */
export function useSchemaForm<Values extends FieldValues, Output>(schema: z.ZodType<Output, FieldValues>, defaultValues: Values, idPrefix: string) {
  const form = useForm<Values, unknown, Output>({
    // The schema may read inputs of another shape (a checkbox left false against `z.literal(true)`).
    resolver: zodResolver(schema) as unknown as Resolver<Values, unknown, Output>,
    defaultValues: defaultValues as DefaultValues<Values>,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    shouldFocusError: true,
  });

  const field = <Name extends Path<Values>>(name: Name, options?: RegisterOptions<Values, Name>) => ({
    id: `${idPrefix}-${name}`,
    error: form.getFieldState(name, form.formState).error?.message,
    ...form.register(name, options),
  });

  /** Puts the server's field messages (`details` of 'Invalid params') on the fields they name. */
  const setServerErrors = (details: { path: string; message: string }[], toField = (path: string) => path.split('.')[0] ?? '') => {
    const values = form.getValues();
    const done = new Set<string>();
    for (const detail of details) {
      const name = toField(detail.path);
      if (!(name in values) || done.has(name)) continue;
      done.add(name);
      form.setError(name as Path<Values>, { type: 'server', message: detail.message });
    }
  };

  return { ...form, field, setServerErrors };
}
