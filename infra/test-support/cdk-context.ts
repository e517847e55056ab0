import { readFileSync } from 'node:fs';

/** The context of cdk.json (its feature flags, the stages' blocks), so tests synthesise what `cdk synth` does. */
export const cdkContext = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;
