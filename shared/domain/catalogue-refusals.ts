/** The answer to a refused catalogue write (shared/db/catalogues.ts): a name in use, or a change meanwhile. */
import { errorTexts } from '#contracts/errors.ts';
import type { CatalogueRefusal } from '#db/catalogues.ts';
import { fail } from './errors.ts';

export function refusalError(refusal: CatalogueRefusal, nameField: string, nameTakenText: string) {
  return refusal === 'nameTaken'
    ? fail.invalid(errorTexts.invalidParams, [{ path: nameField, message: nameTakenText }])
    : fail.invalid(errorTexts.invalidParams, [{ path: '', message: 'O registro foi alterado por outra pessoa. Tente de novo.' }]);
}
