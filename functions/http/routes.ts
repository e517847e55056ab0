import type { ApiTokenScope } from '#contracts/api-tokens.ts';

/**
 * Every REST route: method, path under /api (with {param} segments) and the handler module
 * (relative to functions/http, without extension). The CDK stack and the local gateway both read
 * this list, so a route exists in both or in neither.
 */
export interface HttpRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  handler: string;
  /** Lambda timeout in seconds when the route needs more than the default 10. */
  timeoutSeconds?: number;
  /** The scope an API token needs to call this route; a route without one refuses every API token (ADR-0232). */
  tokenScope?: ApiTokenScope;
}

export const httpRoutes: HttpRoute[] = [
  { method: 'POST', path: '/auth/register', handler: 'auth/register' },
  { method: 'POST', path: '/auth/login', handler: 'auth/login' },
  { method: 'POST', path: '/auth/logout', handler: 'auth/logout' },
  { method: 'GET', path: '/auth/me', handler: 'auth/me' },
  { method: 'POST', path: '/auth/switch-account', handler: 'auth/switch-account' },
  { method: 'POST', path: '/auth/forgot-password', handler: 'auth/forgot-password' },
  { method: 'POST', path: '/auth/reset-password', handler: 'auth/reset-password' },
  { method: 'POST', path: '/auth/verify-email', handler: 'auth/verify-email' },
  { method: 'POST', path: '/auth/resend-verification', handler: 'auth/resend-verification' },
  // The realtime link's one-time ticket (the access token never goes in the WebSocket URL).
  { method: 'POST', path: '/ws-ticket', handler: 'auth/ws-ticket' },

  { method: 'GET', path: '/accounts', handler: 'accounts/list-accounts' },
  { method: 'POST', path: '/accounts', handler: 'accounts/create-account' },
  { method: 'GET', path: '/accounts/{id}', handler: 'accounts/get-account' },
  { method: 'PUT', path: '/accounts/{id}', handler: 'accounts/update-account' },
  { method: 'DELETE', path: '/accounts/{id}', handler: 'accounts/delete-account' },
  { method: 'GET', path: '/accounts/{id}/usage', handler: 'accounts/get-usage' },
  { method: 'POST', path: '/accounts/{id}/exports', handler: 'accounts/start-account-export' },
  { method: 'GET', path: '/accounts/{id}/exports/{exportId}', handler: 'accounts/get-account-export' },

  { method: 'GET', path: '/users', handler: 'users/list-users' },
  { method: 'POST', path: '/users', handler: 'users/create-user' },
  { method: 'GET', path: '/users/{id}', handler: 'users/get-user' },
  { method: 'PUT', path: '/users/{id}', handler: 'users/update-user' },
  { method: 'DELETE', path: '/users/{id}', handler: 'users/delete-user' },
  { method: 'POST', path: '/users/{id}/archive', handler: 'users/archive-user' },

  { method: 'GET', path: '/services', handler: 'services/list-services' },
  { method: 'POST', path: '/services', handler: 'services/create-service' },
  { method: 'GET', path: '/services/{id}', handler: 'services/get-service' },
  { method: 'PUT', path: '/services/{id}', handler: 'services/update-service' },
  { method: 'DELETE', path: '/services/{id}', handler: 'services/delete-service' },
  { method: 'POST', path: '/services/{id}/start', handler: 'services/start-service' },
  { method: 'POST', path: '/services/{id}/restart', handler: 'services/restart-service' },
  { method: 'POST', path: '/services/{id}/shutdown', handler: 'services/shutdown-service' },
  { method: 'POST', path: '/services/{id}/logout', handler: 'services/logout-service' },
  { method: 'POST', path: '/services/{id}/pairing-code', handler: 'services/pair-service-by-phone' },
  // A WhatsApp (API oficial) connection's message templates: members read, admins create, delete and sync with Meta.
  { method: 'GET', path: '/services/{id}/templates', handler: 'templates/list-templates' },
  { method: 'POST', path: '/services/{id}/templates', handler: 'templates/create-template' },
  { method: 'POST', path: '/services/{id}/templates/sync', handler: 'templates/sync-templates', timeoutSeconds: 30 },
  { method: 'DELETE', path: '/services/{id}/templates/{templateId}', handler: 'templates/delete-template' },
  // 'Conectar com a Meta' (Embedded Signup) for WhatsApp (API oficial): admins read whether the operator's Meta app is set, and connect with Meta's code.
  { method: 'GET', path: '/whatsapp-cloud/embedded-signup', handler: 'whatsapp-cloud/get-embedded-signup' },
  { method: 'POST', path: '/whatsapp-cloud/embedded-signup', handler: 'whatsapp-cloud/connect-embedded-signup', timeoutSeconds: 30 },

  { method: 'GET', path: '/contacts', handler: 'contacts/list-contacts', tokenScope: 'contacts:read' },
  { method: 'POST', path: '/contacts', handler: 'contacts/create-contact', tokenScope: 'contacts:write' },
  { method: 'GET', path: '/contacts/{id}', handler: 'contacts/get-contact', tokenScope: 'contacts:read' },
  { method: 'PUT', path: '/contacts/{id}', handler: 'contacts/update-contact', tokenScope: 'contacts:write' },
  { method: 'DELETE', path: '/contacts/{id}', handler: 'contacts/delete-contact', tokenScope: 'contacts:write' },
  { method: 'POST', path: '/contacts/{id}/archive', handler: 'contacts/archive-contact' },
  { method: 'POST', path: '/contacts/{id}/read', handler: 'contacts/mark-contact-read' },
  { method: 'GET', path: '/contacts/{id}/export', handler: 'contacts/export-contact', timeoutSeconds: 30 },
  // 'Importar contatos' (admins): the CSV goes up by a presigned PUT, its check and import run as a stepped job (ADR-0223).
  { method: 'GET', path: '/contact-imports', handler: 'contact-imports/list-contact-imports' },
  { method: 'POST', path: '/contact-imports', handler: 'contact-imports/create-contact-import' },
  { method: 'GET', path: '/contact-imports/{id}', handler: 'contact-imports/get-contact-import' },
  { method: 'GET', path: '/contact-imports/{id}/preview', handler: 'contact-imports/preview-contact-import' },
  { method: 'POST', path: '/contact-imports/{id}/start', handler: 'contact-imports/start-contact-import' },
  // Campaign audiences (ADR-0225, ADR-0226): admins clear an opt-out and export the filtered list as CSV; segments: members read, admins write.
  { method: 'DELETE', path: '/contacts/{id}/opt-out', handler: 'contacts/clear-opt-out' },
  { method: 'POST', path: '/contacts/csv-export', handler: 'contacts/export-contact-list', timeoutSeconds: 30 },
  { method: 'GET', path: '/segments', handler: 'segments/list-segments' },
  { method: 'POST', path: '/segments', handler: 'segments/create-segment' },
  { method: 'GET', path: '/segments/{id}', handler: 'segments/get-segment' },
  { method: 'PUT', path: '/segments/{id}', handler: 'segments/update-segment' },
  { method: 'DELETE', path: '/segments/{id}', handler: 'segments/delete-segment' },

  { method: 'GET', path: '/messages', handler: 'messages/list-messages', tokenScope: 'messages:read' },
  { method: 'POST', path: '/messages/send', handler: 'messages/send-message', tokenScope: 'messages:send' },
  { method: 'POST', path: '/messages/{id}/retry', handler: 'messages/retry-message' },
  { method: 'POST', path: '/messages/{id}/reaction', handler: 'messages/react-message' },
  { method: 'POST', path: '/messages/{id}/forward', handler: 'messages/forward-message' },
  // Scheduled messages (ADR-0224): whoever sees the conversation schedules, edits and cancels.
  { method: 'GET', path: '/contacts/{id}/scheduled-messages', handler: 'scheduled-messages/list-scheduled-messages' },
  { method: 'POST', path: '/scheduled-messages', handler: 'scheduled-messages/schedule-message' },
  { method: 'PUT', path: '/scheduled-messages/{id}', handler: 'scheduled-messages/update-scheduled-message' },
  { method: 'POST', path: '/scheduled-messages/{id}/cancel', handler: 'scheduled-messages/cancel-scheduled-message' },

  // The upload of a file to send is part of sending: an API token with `messages:send` may ask for it.
  { method: 'POST', path: '/files/generate-url-to-upload', handler: 'files/generate-url-to-upload', tokenScope: 'messages:send' },

  // The team inbox (docs/product.md#team-inbox). Gates: member reads and acts on conversations it sees; admin manages catalogues and settings.
  { method: 'GET', path: '/departments', handler: 'departments/list-departments' },
  { method: 'POST', path: '/departments', handler: 'departments/create-department' },
  { method: 'GET', path: '/departments/{id}', handler: 'departments/get-department' },
  { method: 'PUT', path: '/departments/{id}', handler: 'departments/update-department' },
  { method: 'POST', path: '/departments/{id}/archive', handler: 'departments/archive-department' },
  { method: 'GET', path: '/tags', handler: 'tags/list-tags' },
  { method: 'POST', path: '/tags', handler: 'tags/create-tag' },
  { method: 'PUT', path: '/tags/{id}', handler: 'tags/update-tag' },
  { method: 'DELETE', path: '/tags/{id}', handler: 'tags/delete-tag' },
  { method: 'PUT', path: '/contacts/{id}/tags', handler: 'contacts/set-contact-tags' },
  { method: 'POST', path: '/contacts/{id}/take', handler: 'contacts/take-contact' },
  { method: 'POST', path: '/contacts/{id}/transfer', handler: 'contacts/transfer-contact' },
  { method: 'POST', path: '/contacts/{id}/release', handler: 'contacts/release-contact' },
  { method: 'POST', path: '/contacts/{id}/status', handler: 'contacts/set-contact-status' },
  { method: 'POST', path: '/messages/notes', handler: 'messages/add-note' },
  { method: 'GET', path: '/inbox/counts', handler: 'inbox/get-counts' },
  { method: 'GET', path: '/inbox/settings', handler: 'inbox/get-settings' },
  { method: 'PUT', path: '/inbox/settings', handler: 'inbox/update-settings' },
  { method: 'GET', path: '/quick-replies', handler: 'quick-replies/list-quick-replies' },
  { method: 'POST', path: '/quick-replies', handler: 'quick-replies/create-quick-reply' },
  { method: 'PUT', path: '/quick-replies/{id}', handler: 'quick-replies/update-quick-reply' },
  { method: 'DELETE', path: '/quick-replies/{id}', handler: 'quick-replies/delete-quick-reply' },
  { method: 'POST', path: '/quick-replies/{id}/render', handler: 'quick-replies/render-quick-reply' },
  // 'Horário de atendimento': members read (the automations and the inbox use it), admins save it whole.
  { method: 'GET', path: '/business-hours', handler: 'business-hours/get-business-hours' },
  { method: 'PUT', path: '/business-hours', handler: 'business-hours/update-business-hours' },
  // The automations (docs/conversation-lifecycle.md): members read, admins save them whole; a connection's menu ('URA') likewise.
  { method: 'GET', path: '/automations', handler: 'automations/get-automations' },
  { method: 'PUT', path: '/automations', handler: 'automations/update-automations' },
  { method: 'GET', path: '/services/{id}/menu', handler: 'automations/get-connection-menu' },
  { method: 'PUT', path: '/services/{id}/menu', handler: 'automations/update-connection-menu' },
  // 'Relatórios' (docs/product.md#reports): admins read the account's figures, members their own; admins rebuild a period's daily rollups.
  { method: 'GET', path: '/reports', handler: 'reports/get-report' },
  { method: 'POST', path: '/reports/rebuild', handler: 'reports/rebuild-report-days', timeoutSeconds: 30 },
  // Campaigns (ADR-0227): members read them and their progress; admins plan, create, pause, resume and cancel.
  { method: 'GET', path: '/campaigns', handler: 'campaigns/list-campaigns' },
  { method: 'POST', path: '/campaigns', handler: 'campaigns/create-campaign' },
  { method: 'POST', path: '/campaigns/plan', handler: 'campaigns/plan-campaign' },
  { method: 'GET', path: '/campaigns/{id}', handler: 'campaigns/get-campaign' },
  { method: 'GET', path: '/campaigns/{id}/recipients', handler: 'campaigns/list-campaign-recipients' },
  { method: 'POST', path: '/campaigns/{id}/status', handler: 'campaigns/move-campaign' },

  // 'Tokens de API' (ADR-0232): admins create, list, revoke and audit them; no API token reaches these routes.
  { method: 'GET', path: '/api-tokens', handler: 'api-tokens/list-api-tokens' },
  { method: 'POST', path: '/api-tokens', handler: 'api-tokens/create-api-token' },
  { method: 'DELETE', path: '/api-tokens/{id}', handler: 'api-tokens/revoke-api-token' },
  { method: 'GET', path: '/api-tokens/{id}/calls', handler: 'api-tokens/list-api-token-calls' },

  // Outbound webhooks (ADR-0233): admins, or an API token with `webhooks:manage`, manage the subscriptions, read their deliveries and send a test event.
  { method: 'GET', path: '/webhook-subscriptions', handler: 'webhook-subscriptions/list-webhook-subscriptions', tokenScope: 'webhooks:manage' },
  { method: 'POST', path: '/webhook-subscriptions', handler: 'webhook-subscriptions/create-webhook-subscription', tokenScope: 'webhooks:manage' },
  { method: 'GET', path: '/webhook-subscriptions/{id}', handler: 'webhook-subscriptions/get-webhook-subscription', tokenScope: 'webhooks:manage' },
  { method: 'PUT', path: '/webhook-subscriptions/{id}', handler: 'webhook-subscriptions/update-webhook-subscription', tokenScope: 'webhooks:manage' },
  { method: 'DELETE', path: '/webhook-subscriptions/{id}', handler: 'webhook-subscriptions/delete-webhook-subscription', tokenScope: 'webhooks:manage' },
  { method: 'POST', path: '/webhook-subscriptions/{id}/rotate-secret', handler: 'webhook-subscriptions/rotate-webhook-secret', tokenScope: 'webhooks:manage' },
  { method: 'POST', path: '/webhook-subscriptions/{id}/enable', handler: 'webhook-subscriptions/enable-webhook-subscription', tokenScope: 'webhooks:manage' },
  { method: 'GET', path: '/webhook-subscriptions/{id}/deliveries', handler: 'webhook-subscriptions/list-webhook-deliveries', tokenScope: 'webhooks:manage' },
  {
    method: 'POST',
    path: '/webhook-subscriptions/{id}/test',
    handler: 'webhook-subscriptions/send-webhook-test',
    tokenScope: 'webhooks:manage',
    timeoutSeconds: 20,
  },

  // Several GETs of the routes above as one request (docs/api.md#read-batch): the web app's first paint.
  { method: 'POST', path: '/batch', handler: 'batch' },

  { method: 'GET', path: '/payments/products', handler: 'payments/list-products' },
  { method: 'POST', path: '/payments/create-checkout-session', handler: 'payments/create-checkout-session' },
  { method: 'GET', path: '/payments/checkout-session', handler: 'payments/get-checkout-session' },
  { method: 'POST', path: '/payments/portal-session', handler: 'payments/create-portal-session' },

  // Public, for operators and uptime monitors: the channel workers' count and freshest heartbeat, nothing of any account.
  { method: 'GET', path: '/health', handler: 'health' },

  // Called by Stripe: public, checked with the signature of the raw body.
  { method: 'POST', path: '/webhooks/stripe', handler: '../webhooks/stripe' },

  // Called by Telegram, not by browsers: public, checked with the connection's secret token.
  // The handler lives in functions/webhooks (paths are relative to functions/http).
  { method: 'POST', path: '/webhooks/telegram/{serviceId}', handler: '../webhooks/telegram', timeoutSeconds: 30 },

  // Called by Meta for a WhatsApp (API oficial) connection: public; the GET handshake checks the
  // connection's verify token, deliveries the X-Hub-Signature-256 of the raw body (app secret).
  { method: 'GET', path: '/webhooks/whatsapp-cloud/{serviceId}', handler: '../webhooks/whatsapp-cloud-verify' },
  { method: 'POST', path: '/webhooks/whatsapp-cloud/{serviceId}', handler: '../webhooks/whatsapp-cloud', timeoutSeconds: 30 },
];
