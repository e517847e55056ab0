/** Types of ./runtime-bundle.mjs, for the TypeScript that imports it (the tests' runtimes). */
export function ensureRuntimeBundle(): Promise<string>;
export function runtimeCommand(bundleDir: string, entry: string): { args: string[]; env: Record<string, string> };
