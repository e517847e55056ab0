/**
 * The realtime link's address as a browser gets it: a one-time ticket asked with the access token
 * (`POST /api/ws-ticket`), then `/ws?ticket=<ticket>` (docs/realtime.md). The access token itself
 * never goes in the URL. For the tests and the benches, which open sockets as the web app does.
 */

/** The ticket refused (its token is not a live session): `status` is the API's answer. */
export class TicketRefused extends Error {
  constructor(readonly status: number) {
    super(`ws-ticket refused: ${status}`);
  }
}

/** A one-time ticket for the session of `accessToken`, from the runtime at `baseUrl` (http://host:port). */
export async function wsTicket(baseUrl: string, accessToken: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/ws-ticket`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } });
  if (res.status !== 200) throw new TicketRefused(res.status);
  return ((await res.json()) as { ticket: string }).ticket;
}

/** `ws://host:port/ws?ticket=…` for a ticket. */
export const ticketUrl = (baseUrl: string, ticket: string) => `${baseUrl.replace(/^http/, 'ws')}/ws?ticket=${encodeURIComponent(ticket)}`;

/** The URL a socket of the session of `accessToken` opens, with a fresh ticket. */
export async function realtimeUrl(baseUrl: string, accessToken: string): Promise<string> {
  return ticketUrl(baseUrl, await wsTicket(baseUrl, accessToken));
}
