/**
 * What the contact screens show and bound about the account's limits, in a module of their own so
 * that the contact list and the inbox read them without the contact form's phone rules
 * (libphonenumber, in contacts.ts) loading with them.
 */

export const archivedByLimitText = 'Contato arquivado automaticamente porque o limite de contatos da conta foi atingido';

/**
 * How deep a page number may reach into a contact list: the first 10,000 matches (500 pages of
 * 20, as far as anyone pages by hand); past them a list pages by cursor (`after`), which the
 * screens' infinite lists use throughout. A numbered page costs the directory a slice today, but a
 * number names a position rather than a row, so deep numbered pages shift under inserts and would
 * bind any other store to skipping rows (ADR-0135).
 */
export const maxContactsSkipped = 10_000;
