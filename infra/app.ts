import { App } from 'aws-cdk-lib';
import { ensureWebBuild } from '../scripts/ensure-deps.mjs';
import { defineConversa } from './conversa-app.ts';

// The stack uploads web/dist: build it first when it is missing or older than its sources.
ensureWebBuild();

const app = new App();
defineConversa(app);
app.synth();
