/** Types of ./ensure-deps.mjs, for the TypeScript that imports it (the browser tests). */
export function ensureDependencies(): void;
export function ensureWebBuild(): void;
