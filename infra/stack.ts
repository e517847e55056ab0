import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { httpRoutes, type HttpRoute } from '#functions/http/routes.ts';
import { DataTable } from './constructs/data-table.ts';
import { ConversaHttpApi } from './constructs/http-api.ts';

/** Repository root (this file is `infra/stack.ts`). */
const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export const DEFAULT_MAIL_FROM = 'nao-responda@example.com';
export const DEFAULT_APP_URL = 'https://app.example.com';

export interface ConversaStackProps extends StackProps {
  /** Sender of verification and reset e-mails. @default context `mailFrom`, else DEFAULT_MAIL_FROM */
  readonly mailFrom?: string;
  /** Public URL of the web app, used in e-mail links. @default context `appUrl`, else DEFAULT_APP_URL */
  readonly appUrl?: string;
  /**
   * Verified SES identity (domain or address) the functions may send as.
   * @default context `sesIdentity`, else any identity of the account
   */
  readonly sesIdentity?: string;
  /** @default httpRoutes from functions/http/routes.ts */
  readonly routes?: readonly HttpRoute[];
}

/**
 * The foundation slice in the cloud: the table, the JWT signing secret, and the REST API with
 * one function per handler module. Realtime (WebSocket API and stream fan-out), S3 and the static
 * site come in later slices.
 */
export class ConversaStack extends Stack {
  readonly table: DataTable;
  readonly jwtSecret: secretsmanager.Secret;
  readonly httpApi: ConversaHttpApi;

  constructor(scope: Construct, id: string, props: ConversaStackProps = {}) {
    super(scope, id, props);

    const context = (key: string): string | undefined => {
      const value: unknown = this.node.tryGetContext(key);
      return typeof value === 'string' && value.length > 0 ? value : undefined;
    };
    const mailFrom = props.mailFrom ?? context('mailFrom') ?? DEFAULT_MAIL_FROM;
    const appUrl = props.appUrl ?? context('appUrl') ?? DEFAULT_APP_URL;
    const sesIdentity = props.sesIdentity ?? context('sesIdentity');

    this.table = new DataTable(this, 'Data');

    // Handlers fetch the value at cold start through JWT_SECRET_ARN: it never appears in the
    // template, the environment or the logs. Alphanumeric, 64 characters (~380 bits).
    this.jwtSecret = new secretsmanager.Secret(this, 'JwtSecret', {
      description: 'HMAC key that signs Conversa access tokens',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
    });

    this.httpApi = new ConversaHttpApi(this, 'Http', {
      routes: props.routes ?? httpRoutes,
      handlersDir: join(projectRoot, 'functions', 'http'),
      projectRoot,
      environment: {
        TABLE_NAME: this.table.table.tableName,
        JWT_SECRET_ARN: this.jwtSecret.secretArn,
        MAIL_FROM: mailFrom,
        APP_URL: appUrl,
      },
    });

    const sendEmail = new iam.PolicyStatement({
      actions: ['ses:SendEmail', 'ses:SendRawEmail'],
      resources: [
        sesIdentity
          ? this.formatArn({ service: 'ses', resource: 'identity', resourceName: sesIdentity })
          : // No identity configured: any identity verified in this account and region. SES
            // itself still refuses senders that are not verified.
            '*',
      ],
    });
    for (const fn of this.httpApi.functions.values()) {
      this.table.table.grantReadWriteData(fn);
      this.jwtSecret.grantRead(fn);
      fn.addToRolePolicy(sendEmail);
    }

    new CfnOutput(this, 'ApiUrl', { value: this.httpApi.url, description: 'Invoke URL of the REST API stage' });
    new CfnOutput(this, 'TableName', { value: this.table.table.tableName, description: 'The DynamoDB table' });
  }
}
