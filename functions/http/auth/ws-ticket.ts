/** POST /ws-ticket: a one-time ticket that opens one realtime socket for the caller's session (docs/realtime.md). */
import { issueWsTicket } from '#domain/realtime/ws-tickets.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'signedIn' }).handler(async ({ ports, session }) => ok(await issueWsTicket(ports, session)));
