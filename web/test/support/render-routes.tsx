/** Renders routes in a memory router under a fresh query client (no retries), as the app nests them. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, type InitialEntry, RouterProvider, type RouteObject } from 'react-router';

export function newQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

export function renderRoutes(
  routes: RouteObject[],
  initial: InitialEntry = '/',
  client: QueryClient = newQueryClient(),
) {
  const router = createMemoryRouter(routes, { initialEntries: [initial] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, client };
}
