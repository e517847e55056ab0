/**
 * The error catalogue (docs/product.md#error-catalogue): the titles and texts the server sends, and the pt-BR
 * texts the web app shows for them. One source for both sides.
 */

/** Server error titles (the HTTP reason phrases the API puts in `error`). */
export const errorTitles = {
  badRequest: 'Bad Request',
  unauthorized: 'Unauthorized',
  paymentRequired: 'Payment Required',
  forbidden: 'Forbidden',
  notFound: 'Not Found',
  conflict: 'Conflict',
  tooManyRequests: 'Too Many Requests',
  internal: 'Internal Server Error',
  unavailable: 'Service Unavailable',
} as const;

/** Server error texts (the API's `message`). Anything not listed here is a bug to add. */
export const errorTexts = {
  invalidParams: 'Invalid params',
  emailExists: 'Email already exists',
  emailInvalid: 'Email must be a valid email',
  internal: 'Internal server error',
  invalidCredentials: 'Invalid credentials',
  strongPassword: 'Strong password is required',
  userExists: 'User already exists',
  contactOrUserLimit: 'The maximum number of contacts or users allowed on the account has been reached',
  serviceLimit: 'The maximum number of services allowed on the account has been reached',
  ownerMustBeAdmin: 'The owner user must be an administrator',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  notFound: 'Not found',
  tooManyAttempts: 'Too many attempts',
  invalidCode: 'Invalid or expired code',
  cannotArchiveOwner: 'The owner user cannot be archived',
  cannotArchiveSelf: 'You cannot archive yourself',
  cannotDeleteOwner: 'The owner user cannot be deleted',
  cannotDeleteSelf: 'You cannot delete yourself',
  userArchived: 'User is archived',
  contactArchived: 'The contact is archived',
  telegramBotInUse: 'This Telegram bot is already used by another connection',
  serviceDisconnected: 'The connection is not connected',
  fileNotUploaded: 'The file was not uploaded',
  cannotRetry: 'Only failed messages can be sent again',
  telegramTokenInvalid: 'Invalid Telegram token',
  whatsappCloudCredentialsInvalid: 'Invalid WhatsApp Cloud API credentials',
  whatsappCloudNumberInUse: 'This WhatsApp number is already used by another connection',
  customerWindowClosed: 'The 24-hour customer-service window is closed',
  channelUnreachable: 'The channel could not be reached',
  channelNotStartable: 'This connection type cannot be started yet',
  cannotPairByPhone: 'This connection cannot be paired by phone number',
  notWaitingForPairing: 'The connection is not waiting to be paired',
  paymentsNotConfigured: 'Payments are not configured',
  paymentProviderFailed: 'The payment provider could not be reached',
  alreadySubscribed: 'The account already has an active subscription',
  noSubscription: 'The account has no subscription to manage',
  invalidSignature: 'Invalid webhook signature',
  // WhatsApp (API oficial) message templates.
  templatesUnsupported: 'This connection does not use message templates',
  templateExists: 'A message template with this name and language already exists',
  templateRefused: 'Meta refused the message template',
  // Reactions sent from the inbox.
  reactionsUnsupported: 'This connection does not send reactions',
  reactionRefused: 'The channel refused the reaction',
  // The team inbox (docs/product.md#team-inbox).
  conversationTaken: 'The conversation is already assigned to someone else',
  // API tokens (ADR-0232).
  apiTokenRouteRefused: 'This route does not accept API tokens',
  apiTokenScopeMissing: 'The API token does not have the scope this route requires',
  apiTokenRateLimited: 'Too many requests with this API token',
  apiTokenRevoked: 'The API token is already revoked',
} as const;

export type ErrorText = (typeof errorTexts)[keyof typeof errorTexts];

/** The JSON body of every error answer. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  /** Field-level problems for `Invalid params`: the path and the zod message. */
  details?: { path: string; message: string }[];
}

/** Shown titles (docs/product.md#error-catalogue, title mapping). */
export const shownTitles: Record<string, string> = {
  'Payment Required': 'Pagamento obrigatório',
  'Bad Request': 'Requisição inválida',
  Unauthorized: 'Acesso não autorizado',
  FETCH_ERROR: 'Falha na requisição',
};
export const fallbackShownTitle = 'Erro inesperado';

/** Shown messages (docs/product.md#error-catalogue, message mapping, plus our own in the same style). */
export const shownMessages: Record<string, string> = {
  'Email already exists': 'Email já existe',
  'Email must be a valid email': 'Email precisa ser um email válido',
  'Invalid params': 'Os dados fornecidos são inválidos',
  'Internal server error': 'Ocorreu um erro interno no servidor. Tente novamente mais tarde e, se o problema continuar, fale com o nosso suporte.',
  'Invalid credentials': 'Credenciais inválidas',
  'Failed to fetch': 'Não foi possível completar sua requisição. Tente novamente mais tarde.',
  'Strong password is required': 'A senha precisa ser forte',
  'User already exists': 'Usuário já existe',
  'The maximum number of contacts or users allowed on the account has been reached':
    'O número máximo de contatos ou usuários permitido para a sua conta foi atingido. Confira o seu plano em Minha conta.',
  'The maximum number of services allowed on the account has been reached':
    'O número máximo de conexões permitido para a sua conta foi atingido. Confira o seu plano em Minha conta.',
  'The owner user must be an administrator': 'O usuário dono precisa ser administrador',
  'Too many attempts': 'Muitas tentativas. Aguarde alguns minutos e tente novamente.',
  'Invalid or expired code': 'Código inválido ou expirado',
  'The owner user cannot be archived': 'O usuário dono não pode ser arquivado',
  'You cannot archive yourself': 'Você não pode arquivar a si mesmo',
  'The owner user cannot be deleted': 'O usuário dono não pode ser excluído',
  'You cannot delete yourself': 'Você não pode excluir a si mesmo',
  'User is archived': 'Este usuário está arquivado',
  'The contact is archived': 'Contato arquivado. Desarquive-o para enviar mensagens.',
  'This Telegram bot is already used by another connection':
    'Este bot do Telegram já está em uso em outra conexão. Crie outro bot com o BotFather para esta conexão.',
  'The connection is not connected': 'A conexão está desconectada. Reconecte-a em Conexões para enviar mensagens.',
  'The file was not uploaded': 'O arquivo não foi enviado. Anexe-o novamente.',
  'Only failed messages can be sent again': 'Somente mensagens que falharam podem ser reenviadas.',
  'Invalid Telegram token': 'Token do Telegram inválido. Confira o token que o BotFather entregou e tente novamente.',
  'Invalid WhatsApp Cloud API credentials':
    'A Meta recusou as credenciais do WhatsApp (API oficial). Confira os campos indicados no Gerenciador do WhatsApp e tente novamente.',
  'This WhatsApp number is already used by another connection': 'Este número do WhatsApp (API oficial) já está em uso em outra conexão.',
  'The 24-hour customer-service window is closed':
    'A janela de 24 horas do WhatsApp fechou: o cliente não escreve há mais de 24 horas. Só modelos de mensagem aprovados podem ser enviados até ele escrever de novo.',
  'The channel could not be reached': 'Não foi possível falar com o canal agora. Tente novamente em instantes.',
  'This connection type cannot be started yet': 'Este tipo de conexão ainda não pode ser iniciado.',
  'This connection cannot be paired by phone number': 'Somente conexões do WhatsApp podem ser conectadas com o número de telefone.',
  'The connection is not waiting to be paired': 'Esta conexão não está esperando a leitura do código. Inicie a conexão e tente de novo.',
  'Payments are not configured': 'Pagamentos não configurados neste servidor. Fale com o administrador do sistema.',
  'The payment provider could not be reached': 'Não foi possível falar com o provedor de pagamentos agora. Tente novamente em instantes.',
  'The account already has an active subscription': 'Sua conta já tem uma assinatura ativa. Use Gerenciar assinatura para alterá-la.',
  'The account has no subscription to manage': 'Sua conta ainda não tem assinatura. Faça o upgrade para o Plano Pro primeiro.',
  'Invalid webhook signature': 'Assinatura do webhook inválida',
  'This connection does not use message templates': 'Modelos de mensagem existem só nas conexões do WhatsApp (API oficial).',
  'A message template with this name and language already exists': 'Já existe um modelo com este nome neste idioma. Escolha outro nome.',
  'Meta refused the message template': 'A Meta recusou este modelo de mensagem. Confira os campos e tente novamente.',
  'This connection does not send reactions': 'Reações pelo inbox existem só nas conexões do WhatsApp (API oficial).',
  'The channel refused the reaction': 'O WhatsApp não aceitou a reação. Veja o motivo e tente novamente.',
  'The conversation is already assigned to someone else': 'Outra pessoa já assumiu esta conversa. Atualize a lista para ver quem a atende.',
  'This route does not accept API tokens': 'Esta rota não aceita tokens de API. Ela só pode ser usada entrando no Conversa.',
  'The API token does not have the scope this route requires':
    'Este token de API não tem a permissão que esta rota exige. Crie um token com a permissão certa em Tokens de API.',
  'Too many requests with this API token': 'Muitas requisições com este token de API. Aguarde o tempo indicado em Retry-After e tente novamente.',
  'The API token is already revoked': 'Este token de API já foi revogado.',
  Forbidden: 'Você não tem permissão para esta ação',
  Unauthorized: 'Sua sessão terminou. Entre novamente para continuar.',
  'Not found': 'Registro não encontrado',
};
export const fallbackShownMessage = 'Um erro inesperado aconteceu';

export function shownTitle(serverTitle: string | undefined): string {
  return (serverTitle && shownTitles[serverTitle]) || fallbackShownTitle;
}

export function shownMessage(serverText: string | undefined): string {
  return (serverText && shownMessages[serverText]) || fallbackShownMessage;
}
