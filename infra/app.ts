import { App } from 'aws-cdk-lib';
import { ConversaStack } from './stack.ts';

const app = new App();

const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;

new ConversaStack(app, 'ConversaStack', {
  description: 'Conversa: multi-tenant WhatsApp and Telegram inbox',
  // Environment-agnostic when the CLI has no credentials (offline synth); pinned when it has.
  ...(account || region ? { env: { account, region } } : {}),
});

app.synth();
