/**
 * What a signed-in screen's start fetches beyond the boot chunk, for the shell's entry to preload
 * as the boot chunk starts (web/src/main.tsx, from the shell's data block: build/first-requests.ts). Left to itself the browser learns of these files a level at a time: the
 * boot chunk runs (after the skeleton's first paint), then asks for the route's data module, the
 * frame and the screen, whose own imports follow; over a phone's 4G each level is a round trip
 * (Lighthouse's simulated /inbox put the screen's files 0.2 s after the boot chunk, its list's
 * text at 3.8 s). Preloaded as the boot chunk starts, they download while it runs instead. Only a
 * signed-in screen's address gets them: the public pages fetch none of the app's code.
 */

/** The modules a signed-in screen's start imports dynamically (web/src paths), by `data-shell` screen. */
const startModules = {
  // boot.tsx: the session check, the API client and the first data; router.tsx: the frame; lazy-page.tsx: the query scope.
  common: ['features/auth/api/get-me.ts', 'lib/api-client.ts', 'app/route-data.ts', 'app/routes/app/app-shell.tsx', 'app/query-scope.tsx'],
  inbox: ['app/routes/app/inbox.tsx'],
  contacts: ['app/routes/app/contacts.tsx'],
} as const;

export type PreloadScreen = Exclude<keyof typeof startModules, 'common'>;

type Chunk = { type: 'chunk'; fileName: string; moduleIds: string[]; imports: string[] };
type Bundle = Record<string, { type: string }>;

const asWebPath = (id: string) => id.replaceAll('\\', '/').split('/web/src/')[1];

/**
 * Each screen's files: the chunks holding its start modules and everything they import statically,
 * less what the shell already links (`html`: the boot chunk and its imports). Fails the build when
 * a start module is in no chunk (moved or renamed), rather than preloading nothing.
 */
export function screenPreloads(bundle: Bundle, html: string): Record<PreloadScreen, string[]> {
  const chunks = Object.values(bundle).filter((c): c is Chunk & typeof c => c.type === 'chunk') as unknown as Chunk[];
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const chunkOf = (module: string) => {
    const chunk = chunks.find((c) => c.moduleIds.some((id) => asWebPath(id) === module));
    if (!chunk) throw new Error(`screen-preloads: web/src/${module} is in no chunk of the build`);
    return chunk.fileName;
  };
  const closure = (modules: readonly string[]) => {
    const files = new Set<string>();
    const visit = (file: string) => {
      if (files.has(file)) return;
      files.add(file);
      for (const dep of byFile.get(file)?.imports ?? []) visit(dep);
    };
    for (const module of modules) visit(chunkOf(module));
    return [...files].filter((file) => !html.includes(`/${file}"`)).sort();
  };
  return {
    inbox: closure([...startModules.common, ...startModules.inbox]),
    contacts: closure([...startModules.common, ...startModules.contacts]),
  };
}
