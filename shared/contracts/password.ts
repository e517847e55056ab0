/**
 * Password strength: one rule for the users form's four-level bar and the server's
 * 'Strong password is required' check (8+ characters with lower and upper case, a digit and a symbol).
 */
export type StrengthLevel = 0 | 1 | 2 | 3 | 4;

export const strengthLabels: Record<StrengthLevel, string> = {
  0: 'Muito fraca',
  1: 'Fraca',
  2: 'Razoável',
  3: 'Boa',
  4: 'Forte',
};

export function passwordStrength(password: string): StrengthLevel {
  if (!password) return 0;
  let level = 0;
  if (password.length >= 8) level++;
  if (/[a-z]/.test(password) && /[A-Z]/.test(password)) level++;
  if (/\d/.test(password)) level++;
  if (/[^A-Za-z0-9]/.test(password)) level++;
  return level as StrengthLevel;
}

export function isStrongPassword(password: string): boolean {
  return passwordStrength(password) === 4;
}
