/**
 * A contact's gender (docs/product.md#entities-and-states), in its own module so that the realtime contract can read it
 * without loading the contact form's phone rules (libphonenumber) into every signed-in screen.
 */
export const genders = ['male', 'female'] as const;
export type Gender = (typeof genders)[number];
export const genderLabels: Record<Gender, string> = { male: 'Masculino', female: 'Feminino' };
