import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AuthLayout } from '../components/layouts/auth-layout.tsx';
import { MarketingLayout } from '../components/layouts/marketing-layout.tsx';
import { FullScreenLoader } from '../components/ui/spinner.tsx';
import { GuestOnly, RequireAccount, RequireAuth, RequireNoAccount } from './guards.tsx';
import { RootLayout, RouteError } from './root-layout.tsx';
import LandingPage from './routes/landing.tsx';

/** A lazily loaded page: its code is a separate chunk fetched on first visit. */
function page(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: FullScreenLoader,
    children: [
      {
        Component: MarketingLayout,
        children: [
          { Component: GuestOnly, children: [{ index: true, Component: LandingPage }] },
          { path: 'about', ...page(() => import('./routes/about.tsx')) },
          { path: 'contact', ...page(() => import('./routes/contact.tsx')) },
          { path: 'terms', ...page(() => import('./routes/terms.tsx')) },
          { path: 'privacy', ...page(() => import('./routes/privacy.tsx')) },
          { path: 'cookies', ...page(() => import('./routes/cookies.tsx')) },
          { path: 'demo', ...page(() => import('./routes/demo.tsx')) },
          { path: '*', ...page(() => import('./routes/not-found.tsx')) },
        ],
      },
      {
        Component: GuestOnly,
        children: [
          {
            Component: AuthLayout,
            children: [
              { path: 'login', ...page(() => import('./routes/auth/login.tsx')) },
              { path: 'register', ...page(() => import('./routes/auth/register.tsx')) },
              { path: 'forgot-password', ...page(() => import('./routes/auth/forgot-password.tsx')) },
              { path: 'reset-password', ...page(() => import('./routes/auth/reset-password.tsx')) },
              { path: 'verify-email', ...page(() => import('./routes/auth/verify-email.tsx')) },
            ],
          },
        ],
      },
      {
        Component: RequireAuth,
        children: [
          {
            Component: RequireNoAccount,
            children: [
              {
                Component: AuthLayout,
                children: [{ path: 'accounts', ...page(() => import('./routes/auth/accounts.tsx')) }],
              },
            ],
          },
          {
            Component: RequireAccount,
            children: [
              {
                ...page(() => import('./routes/app/app-shell.tsx')),
                handle: { hideWhatsApp: true },
                children: [
                  { path: 'inbox/:contactId?', ...page(() => import('./routes/app/inbox.tsx')) },
                  { path: 'contacts/*', ...page(() => import('./routes/app/contacts.tsx')) },
                  { path: 'services/*', ...page(() => import('./routes/app/services.tsx')) },
                  { path: 'users/*', ...page(() => import('./routes/app/users.tsx')) },
                  { path: 'my-account/*', ...page(() => import('./routes/app/my-account.tsx')) },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
