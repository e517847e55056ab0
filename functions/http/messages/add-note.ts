import { notePayload } from '#contracts/conversations.ts';
import { addNote } from '#domain/conversations/assignment.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'member', body: notePayload }).handler(async ({ ports, session, body }) => created(await addNote(ports, session, body)));
