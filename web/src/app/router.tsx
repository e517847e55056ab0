import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { AuthLayout } from '#web/components/layouts/auth-layout.tsx';
import { MarketingLayout } from '#web/components/layouts/marketing-layout.tsx';
import { PageLoader } from '#web/components/ui/spinner.tsx';
import { GuestOnly, RequireAccount, RequireAuth } from './guards.tsx';
import { RootLayout } from './root-layout.tsx';
import LandingPage from './routes/landing.tsx';

// Every page but the landing is its own chunk, fetched on first visit (see scripts/check-bundle-size.mjs).
const About = lazy(() => import('./routes/about.tsx'));
const Contact = lazy(() => import('./routes/contact.tsx'));
const Terms = lazy(() => import('./routes/terms.tsx'));
const Privacy = lazy(() => import('./routes/privacy.tsx'));
const Cookies = lazy(() => import('./routes/cookies.tsx'));
const Demo = lazy(() => import('./routes/demo.tsx'));
const NotFound = lazy(() => import('./routes/not-found.tsx'));
const Login = lazy(() => import('./routes/auth/login.tsx'));
const Register = lazy(() => import('./routes/auth/register.tsx'));
const ForgotPassword = lazy(() => import('./routes/auth/forgot-password.tsx'));
const ResetPassword = lazy(() => import('./routes/auth/reset-password.tsx'));
const VerifyEmail = lazy(() => import('./routes/auth/verify-email.tsx'));
const Accounts = lazy(() => import('./routes/auth/accounts.tsx'));
const AppShell = lazy(() => import('./routes/app/app-shell.tsx'));
const Inbox = lazy(() => import('./routes/app/inbox.tsx'));
const Contacts = lazy(() => import('./routes/app/contacts.tsx'));
const Services = lazy(() => import('./routes/app/services.tsx'));
const Users = lazy(() => import('./routes/app/users.tsx'));
const MyAccount = lazy(() => import('./routes/app/my-account.tsx'));

/** Path prefixes of the signed-in app (no WhatsApp widget there). */
export const appPaths = ['/inbox', '/contacts', '/services', '/users', '/my-account'];

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoader />}>{children}</Suspense>;
}

/** The route table of SPEC section 2, with its guards. */
export function AppRoutes() {
  return (
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
          <Route element={<AuthLayout />}>
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
            <Route
              path="verify-email"
              element={
                <Page>
                  <VerifyEmail />
                </Page>
              }
            />
          </Route>
        </Route>
        <Route element={<RequireAuth />}>
          <Route element={<AuthLayout />}>
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
                <Page>
                  <AppShell />
                </Page>
              }
            >
              <Route
                path="inbox/:contactId?"
                element={
                  <Page>
                    <Inbox />
                  </Page>
                }
              />
              <Route
                path="contacts/*"
                element={
                  <Page>
                    <Contacts />
                  </Page>
                }
              />
              <Route
                path="services/*"
                element={
                  <Page>
                    <Services />
                  </Page>
                }
              />
              <Route
                path="users/*"
                element={
                  <Page>
                    <Users />
                  </Page>
                }
              />
              <Route
                path="my-account/*"
                element={
                  <Page>
                    <MyAccount />
                  </Page>
                }
              />
            </Route>
          </Route>
        </Route>
      </Route>
    </Routes>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
