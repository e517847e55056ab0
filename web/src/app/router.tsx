import { Suspense, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
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
const Users = lazyPage(() => import('./routes/app/users.tsx'), { data: true });
const Departments = lazyPage(() => import('./routes/app/departments.tsx'), { data: true });
const Tags = lazyPage(() => import('./routes/app/tags.tsx'), { data: true });
const QuickReplies = lazyPage(() => import('./routes/app/quick-replies.tsx'), { data: true });
const MyAccount = lazyPage(() => import('./routes/app/my-account.tsx'), { data: true });

/** Pages by path, fetched as soon as the path is known rather than once their parent layout has loaded. */
const routePreloads: [prefix: string, pages: { preload: () => void }[]][] = [
  ['/inbox', [AppShell, Inbox]],
  ['/contacts', [AppShell, Contacts]],
  ['/services', [AppShell, Services]],
  ['/users', [AppShell, Users]],
  ['/departments', [AppShell, Departments]],
  ['/tags', [AppShell, Tags]],
  ['/quick-replies', [AppShell, QuickReplies]],
  ['/my-account', [AppShell, MyAccount]],
  ['/login', [AuthLayout, Login]],
  ['/register', [AuthLayout, Register]],
  ['/forgot-password', [AuthLayout, ForgotPassword]],
  ['/reset-password', [AuthLayout, ResetPassword]],
  ['/verify-email', [AuthLayout, VerifyEmail]],
  ['/accounts', [AuthLayout, Accounts]],
];

/** Starts fetching the chunks of the page at `pathname` and of its layout (boot.tsx calls it before React renders). */
export function preloadRoute(pathname: string): void {
  const match = routePreloads.find(([prefix]) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  for (const page of match?.[1] ?? []) page.preload();
}

function PreloadRoute() {
  preloadRoute(useLocation().pathname);
  return null;
}

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

/** The route table of docs/product.md#screens, with its guards. */
export function AppRoutes() {
  return (
    <>
      <PreloadRoute />
      <Routes>
        <Route element={<RootLayout />}>
          <Route element={<MarketingLayout />}>
            <Route element={<GuestOnly />}>
              <Route index element={<LandingPage />} />
            </Route>
            <Route
              path="about"
              element={
                <Page>
                  <About />
                </Page>
              }
            />
            <Route
              path="contact"
              element={
                <Page>
                  <Contact />
                </Page>
              }
            />
            <Route
              path="terms"
              element={
                <Page>
                  <Terms />
                </Page>
              }
            />
            <Route
              path="privacy"
              element={
                <Page>
                  <Privacy />
                </Page>
              }
            />
            <Route
              path="cookies"
              element={
                <Page>
                  <Cookies />
                </Page>
              }
            />
            <Route
              path="demo"
              element={
                <Page>
                  <Demo />
                </Page>
              }
            />
            <Route
              path="*"
              element={
                <Page>
                  <NotFound />
                </Page>
              }
            />
          </Route>
          <Route element={<GuestOnly />}>
            <Route
              element={
                <Page>
                  <AuthLayout />
                </Page>
              }
            >
              <Route
                path="login"
                element={
                  <Page>
                    <Login />
                  </Page>
                }
              />
              <Route
                path="register"
                element={
                  <Page>
                    <Register />
                  </Page>
                }
              />
              <Route
                path="forgot-password"
                element={
                  <Page>
                    <ForgotPassword />
                  </Page>
                }
              />
              <Route
                path="reset-password"
                element={
                  <Page>
                    <ResetPassword />
                  </Page>
                }
              />
            </Route>
          </Route>
          {/* Guests and signed-in users alike: the link of an e-mail change is opened signed in. */}
          <Route
            element={
              <Page>
                <AuthLayout />
              </Page>
            }
          >
            <Route
              path="verify-email"
              element={
                <Page>
                  <VerifyEmail />
                </Page>
              }
            />
          </Route>
          <Route element={<RequireAuth />}>
            <Route
              element={
                <Page>
                  <AuthLayout />
                </Page>
              }
            >
              <Route
                path="accounts"
                element={
                  <Page>
                    <Accounts />
                  </Page>
                }
              />
            </Route>
            <Route element={<RequireAccount />}>
              <Route
                element={
                  <AppFrame>
                    <AppShell />
                  </AppFrame>
                }
              >
                <Route
                  path="inbox/:contactId?"
                  element={
                    <Screen>
                      <Inbox />
                    </Screen>
                  }
                />
                <Route
                  path="contacts/*"
                  element={
                    <Screen>
                      <Contacts />
                    </Screen>
                  }
                />
                <Route
                  path="services/*"
                  element={
                    <Screen>
                      <Services />
                    </Screen>
                  }
                />
                <Route
                  path="users/*"
                  element={
                    <Screen>
                      <Users />
                    </Screen>
                  }
                />
                <Route
                  path="departments/*"
                  element={
                    <Screen>
                      <Departments />
                    </Screen>
                  }
                />
                <Route
                  path="tags/*"
                  element={
                    <Screen>
                      <Tags />
                    </Screen>
                  }
                />
                <Route
                  path="quick-replies/*"
                  element={
                    <Screen>
                      <QuickReplies />
                    </Screen>
                  }
                />
                <Route
                  path="my-account/*"
                  element={
                    <Screen>
                      <MyAccount />
                    </Screen>
                  }
                />
              </Route>
            </Route>
          </Route>
        </Route>
      </Routes>
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
