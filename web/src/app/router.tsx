import { type ComponentType, type ReactElement, type ReactNode, Suspense } from 'react';
import { BrowserRouter, type NonIndexRouteObject, type RouteObject, useLocation, useRoutes } from 'react-router';
import { MarketingLayout } from '#web/components/layouts/marketing-layout.tsx';
import { PageLoader } from '#web/components/ui/spinner.tsx';
import { storage, storageKeys } from '#web/lib/storage.ts';
import { AppSkeleton, ScreenSkeleton, skeletonScreenOf } from './app-skeleton.tsx';
import { GuestOnly, RequireAccount, RequireAuth } from './guards.tsx';
import { lazyPage } from './lazy-page.tsx';
import { RootLayout } from './root-layout.tsx';
import LandingPage from './routes/landing.tsx';

// Every page but the landing is its own chunk, fetched on first visit; the pages that call the API
// bring the query client along (lazy-page.tsx). The public pages load no signed-in code: no app
// shell, no inbox, no realtime client, no TanStack Query (scripts/check-bundle-size.mjs).
const About = lazyPage(() => import('./routes/about.tsx'));
const Contact = lazyPage(() => import('./routes/contact.tsx'));
const Terms = lazyPage(() => import('./routes/terms.tsx'));
const Privacy = lazyPage(() => import('./routes/privacy.tsx'));
const Cookies = lazyPage(() => import('./routes/cookies.tsx'));
const ApiReference = lazyPage(() => import('./routes/api-reference.tsx'));
const Demo = lazyPage(() => import('./routes/demo.tsx'));
const NotFound = lazyPage(() => import('./routes/not-found.tsx'));
// The sign-in screens' frame is theirs alone: fetched with the screen (PreloadRoute), not by the landing.
const AuthLayout = lazyPage(() => import('#web/components/layouts/auth-layout.tsx').then((m) => ({ default: m.AuthLayout })));
const Login = lazyPage(() => import('./routes/auth/login.tsx'));
const Register = lazyPage(() => import('./routes/auth/register.tsx'), { data: true });
const ForgotPassword = lazyPage(() => import('./routes/auth/forgot-password.tsx'), { data: true });
const ResetPassword = lazyPage(() => import('./routes/auth/reset-password.tsx'), { data: true });
const VerifyEmail = lazyPage(() => import('./routes/auth/verify-email.tsx'), { data: true });
const Accounts = lazyPage(() => import('./routes/auth/accounts.tsx'), { data: true });
const AppShell = lazyPage(() => import('./routes/app/app-shell.tsx'), { data: true });
const Inbox = lazyPage(() => import('./routes/app/inbox.tsx'), { data: true });
const Contacts = lazyPage(() => import('./routes/app/contacts.tsx'), { data: true });
const Services = lazyPage(() => import('./routes/app/services.tsx'), { data: true });
const ServiceTemplates = lazyPage(() => import('./routes/app/service-templates.tsx'), { data: true });
const Users = lazyPage(() => import('./routes/app/users.tsx'), { data: true });
const Departments = lazyPage(() => import('./routes/app/departments.tsx'), { data: true });
const Tags = lazyPage(() => import('./routes/app/tags.tsx'), { data: true });
const QuickReplies = lazyPage(() => import('./routes/app/quick-replies.tsx'), { data: true });
const BusinessHours = lazyPage(() => import('./routes/app/business-hours.tsx'), { data: true });
const Automations = lazyPage(() => import('./routes/app/automations.tsx'), { data: true });
const ApiTokens = lazyPage(() => import('./routes/app/api-tokens.tsx'), { data: true });
const Campaigns = lazyPage(() => import('./routes/app/campaigns.tsx'), { data: true });
const Webhooks = lazyPage(() => import('./routes/app/webhooks.tsx'), { data: true });
const Reports = lazyPage(() => import('./routes/app/reports.tsx'), { data: true });
const ServiceMenu = lazyPage(() => import('./routes/app/service-menu.tsx'), { data: true });
const MyAccount = lazyPage(() => import('./routes/app/my-account.tsx'), { data: true });

type LazyPage = ReturnType<typeof lazyPage>;

/** Who may open a screen; signed-in visitors without an account go to /accounts from an `account` screen. */
type Guard = 'public' | 'guest' | 'signed-in' | 'account';
/** The frame around a screen: the marketing pages', the sign-in screens' or the signed-in app's. */
type Frame = 'marketing' | 'auth' | 'app';

interface ScreenRoute {
  /** Path under `/`; null: `/` itself. */
  path: string | null;
  page: LazyPage | ComponentType;
  guard: Guard;
  frame: Frame;
}

/** The screens of docs/product.md#screens: one line each. */
const screens: ScreenRoute[] = [
  { path: null, page: LandingPage, guard: 'guest', frame: 'marketing' },
  { path: 'about', page: About, guard: 'public', frame: 'marketing' },
  { path: 'contact', page: Contact, guard: 'public', frame: 'marketing' },
  { path: 'terms', page: Terms, guard: 'public', frame: 'marketing' },
  { path: 'privacy', page: Privacy, guard: 'public', frame: 'marketing' },
  { path: 'cookies', page: Cookies, guard: 'public', frame: 'marketing' },
  { path: 'docs/api', page: ApiReference, guard: 'public', frame: 'marketing' },
  { path: 'demo', page: Demo, guard: 'public', frame: 'marketing' },
  { path: '*', page: NotFound, guard: 'public', frame: 'marketing' },
  { path: 'login', page: Login, guard: 'guest', frame: 'auth' },
  { path: 'register', page: Register, guard: 'guest', frame: 'auth' },
  { path: 'forgot-password', page: ForgotPassword, guard: 'guest', frame: 'auth' },
  { path: 'reset-password', page: ResetPassword, guard: 'guest', frame: 'auth' },
  // Guests and signed-in users alike: the link of an e-mail change is opened signed in.
  { path: 'verify-email', page: VerifyEmail, guard: 'public', frame: 'auth' },
  { path: 'accounts', page: Accounts, guard: 'signed-in', frame: 'auth' },
  { path: 'inbox/:contactId?', page: Inbox, guard: 'account', frame: 'app' },
  { path: 'contacts/*', page: Contacts, guard: 'account', frame: 'app' },
  { path: 'services/:id/templates', page: ServiceTemplates, guard: 'account', frame: 'app' },
  { path: 'services/:id/menu', page: ServiceMenu, guard: 'account', frame: 'app' },
  { path: 'services/*', page: Services, guard: 'account', frame: 'app' },
  { path: 'users/*', page: Users, guard: 'account', frame: 'app' },
  { path: 'departments/*', page: Departments, guard: 'account', frame: 'app' },
  { path: 'tags/*', page: Tags, guard: 'account', frame: 'app' },
  { path: 'quick-replies/*', page: QuickReplies, guard: 'account', frame: 'app' },
  { path: 'business-hours', page: BusinessHours, guard: 'account', frame: 'app' },
  { path: 'api-tokens', page: ApiTokens, guard: 'account', frame: 'app' },
  { path: 'automations', page: Automations, guard: 'account', frame: 'app' },
  { path: 'campaigns/*', page: Campaigns, guard: 'account', frame: 'app' },
  { path: 'webhooks', page: Webhooks, guard: 'account', frame: 'app' },
  { path: 'reports', page: Reports, guard: 'account', frame: 'app' },
  { path: 'my-account/*', page: MyAccount, guard: 'account', frame: 'app' },
];

const isLazy = (page: LazyPage | ComponentType): page is LazyPage => 'preload' in page;

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoader />}>{children}</Suspense>;
}

/** The signed-in frame, or its skeleton (the one the shell painted) while its code loads. */
function AppFrame({ children }: { children: ReactNode }) {
  const screen = skeletonScreenOf(useLocation().pathname);
  const collapsed = storage.get(storageKeys.sidebarCollapsed) === 'true';
  return <Suspense fallback={<AppSkeleton screen={screen} collapsed={collapsed} />}>{children}</Suspense>;
}

/** A signed-in screen, or its part of the skeleton while its code loads inside the frame. */
function Screen({ children }: { children: ReactNode }) {
  return <Suspense fallback={<ScreenSkeleton screen={skeletonScreenOf(useLocation().pathname)} />}>{children}</Suspense>;
}

/**
 * Each frame: its layout, its own chunk when it has one (fetched with the screen: `preloadRoute`),
 * and how a screen waits for its code inside it. A frame with its own chunk sits inside the guard,
 * so a visitor sent elsewhere never fetches it; the marketing frame is in the main chunk and stays
 * mounted from the landing to the public pages, so the landing's guard sits inside it.
 */
const frames: Record<Frame, { layout: ReactElement; chunk: LazyPage | null; wait: (page: ReactElement) => ReactElement }> = {
  marketing: { layout: <MarketingLayout />, chunk: null, wait: (page) => <Page>{page}</Page> },
  auth: {
    layout: (
      <Page>
        <AuthLayout />
      </Page>
    ),
    chunk: AuthLayout,
    wait: (page) => <Page>{page}</Page>,
  },
  app: {
    layout: (
      <AppFrame>
        <AppShell />
      </AppFrame>
    ),
    chunk: AppShell,
    wait: (page) => <Screen>{page}</Screen>,
  },
};

/** The guards a screen is behind, outermost first (guards.tsx). */
const guards: Record<Guard, [name: string, element: ReactElement][]> = {
  public: [],
  guest: [['guest', <GuestOnly key="guest" />]],
  'signed-in': [['signed-in', <RequireAuth key="signed-in" />]],
  account: [
    ['signed-in', <RequireAuth key="signed-in" />],
    ['account', <RequireAccount key="account" />],
  ],
};

/**
 * The route tree: every screen under the layouts and guards its line names, screens sharing a
 * layout or guard under one route of it (a layout stays mounted between its screens).
 */
function routeTree(): RouteObject[] {
  type Parent = NonIndexRouteObject & { children: RouteObject[] };
  const root: Parent = { element: <RootLayout />, children: [] };
  const parents = new Map<string, Parent>();
  for (const screen of screens) {
    const frame = frames[screen.frame];
    const frameStep: [string, ReactElement] = [screen.frame, frame.layout];
    const chain = frame.chunk ? [...guards[screen.guard], frameStep] : [frameStep, ...guards[screen.guard]];
    let parent = root;
    let path = '';
    for (const [name, element] of chain) {
      path += `/${name}`;
      let route = parents.get(path);
      if (!route) {
        route = { element, children: [] };
        parents.set(path, route);
        parent.children.push(route);
      }
      parent = route;
    }
    const Page = screen.page;
    const element = isLazy(Page) ? frame.wait(<Page />) : <Page />;
    parent.children.push(screen.path === null ? { index: true, element } : { path: screen.path, element });
  }
  return [root];
}

const routes = routeTree();

/**
 * Pages by path, fetched as soon as the path is known rather than once their frame has loaded: the
 * screens of a frame with its own chunk, with that chunk.
 */
const routePreloads = screens.flatMap(({ path, page, frame }) => {
  const { chunk } = frames[frame];
  return chunk && path && isLazy(page) ? [{ prefix: `/${path.split('/')[0]}`, pages: [chunk, page] }] : [];
});

/** Starts fetching the chunks of the page at `pathname` and of its layout (boot.tsx calls it before React renders). */
export function preloadRoute(pathname: string): void {
  const match = routePreloads.find(({ prefix }) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  for (const page of match?.pages ?? []) page.preload();
}

function PreloadRoute() {
  preloadRoute(useLocation().pathname);
  return null;
}

/** The route table of docs/product.md#screens, with its guards. */
export function AppRoutes() {
  return (
    <>
      <PreloadRoute />
      {useRoutes(routes)}
    </>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
