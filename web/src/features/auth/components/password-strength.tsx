import { passwordStrength, strengthLabels } from '#contracts/password.ts';
import { cn } from '#web/lib/cn.ts';

const colours = ['bg-border-strong', 'bg-danger', 'bg-warning', 'bg-brand', 'bg-success'];

/** A four-step bar and 'Força da senha: {level}' (the server asks for a strong one). */
export function PasswordStrength({ password }: { password: string }) {
  const level = passwordStrength(password);
  if (!password) return null;
  return (
    <div className="space-y-1.5" aria-live="polite">
      <div className="grid grid-cols-4 gap-1.5" aria-hidden="true">
        {[1, 2, 3, 4].map((step) => (
          <span key={step} className={cn('h-1.5 rounded-full', step <= level ? colours[level] : 'bg-surface-2')} />
        ))}
      </div>
      <p className="text-xs text-fg-muted">Força da senha: {strengthLabels[level]}</p>
    </div>
  );
}
