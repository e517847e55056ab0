import { useCallback, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { z } from 'zod';

type FieldValue = string | boolean;
export type FormErrors<V> = Partial<Record<keyof V & string, string>>;

/** The first message of each field in a zod error. */
export function issuesToErrors<V>(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FormErrors<V> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '');
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return errors as FormErrors<V>;
}

/**
 * A small form hook around a zod schema from `shared/contracts`: the exact pt-BR messages come
 * from the schema. Validates on submit, then live as the person corrects the fields, and moves
 * focus to the first invalid field.
 */
export function useZodForm<V extends Record<string, FieldValue>, Out>(
  schema: z.ZodType<Out>,
  initial: V,
  options: { idPrefix?: string } = {},
) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FormErrors<V>>({});
  const [submitted, setSubmitted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const prefix = options.idPrefix ?? 'f';

  const validate = useCallback(
    (next: V): { ok: true; data: Out } | { ok: false; errors: FormErrors<V> } => {
      const result = schema.safeParse(next);
      if (result.success) return { ok: true, data: result.data };
      return { ok: false, errors: issuesToErrors<V>(result.error.issues) };
    },
    [schema],
  );

  const setValue = useCallback(
    <K extends keyof V & string>(name: K, value: V[K]) => {
      setValues((prev) => {
        const next = { ...prev, [name]: value };
        if (submitted) {
          const result = validate(next);
          setErrors(result.ok ? {} : result.errors);
        }
        return next;
      });
    },
    [submitted, validate],
  );

  /** Props for a text-like input bound to `name`. */
  const field = <K extends keyof V & string>(name: K) => ({
    id: `${prefix}-${name}`,
    name,
    value: String(values[name] ?? ''),
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      setValue(name, event.target.value as V[K]),
  });

  /** Props for a checkbox bound to `name`. */
  const checkbox = <K extends keyof V & string>(name: K) => ({
    id: `${prefix}-${name}`,
    name,
    checked: Boolean(values[name]),
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValue(name, event.target.checked as V[K]),
  });

  const focusFirstError = (errs: FormErrors<V>) => {
    const first = Object.keys(errs)[0];
    if (!first) return;
    const element = formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`);
    element?.focus();
  };

  const handleSubmit = (onValid: (data: Out) => void | Promise<void>) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const result = validate(values);
    if (!result.ok) {
      setErrors(result.errors);
      focusFirstError(result.errors);
      return;
    }
    setErrors({});
    void onValid(result.data);
  };

  /** Puts the server's field messages (`details` of 'Invalid params') on the fields. */
  const setServerErrors = (details: { path: string; message: string }[]) => {
    const errs: Record<string, string> = {};
    for (const d of details) {
      const key = d.path.split('.')[0] ?? '';
      if (key in values && !errs[key]) errs[key] = d.message;
    }
    setErrors(errs as FormErrors<V>);
  };

  return { values, errors, setValue, setValues, field, checkbox, handleSubmit, setServerErrors, formRef };
}
