/** Who is calling: resolved from a verified, unrevoked access token by the HTTP edge. */
import type { ApiTokenScope } from '#contracts/api-tokens.ts';
import type { UserItem } from '#db/users.ts';
import type { TokenClaims } from './ports.ts';

export interface Session {
  claims: TokenClaims;
  user: UserItem;
  /** The account every account-scoped key is built from: the token's, never the request's. */
  accountId: string | null;
  /** Set when the caller used an API token (ADR-0232): it acts as its creator, within these scopes. */
  apiToken?: { id: string; scopes: ApiTokenScope[] };
}

/** A session that belongs to an account (every account-scoped route). */
export interface AccountSession extends Session {
  accountId: string;
}
