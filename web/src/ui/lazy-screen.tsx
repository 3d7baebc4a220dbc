import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { SHELL_MESSAGES } from '@moodmap/core';
import { Spinner } from './Button.tsx';

/**
 * Screens other than the map are fetched when first opened (the first load carries the
 * map only). `pick` names the export, so screens keep their named exports.
 */
export function lazyScreen<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>) {
  return lazy(async () => ({ default: pick(await load()) }));
}

/** Where a lazy screen renders: the fallback below while its chunk loads. */
export function Deferred({ children }: { children: ReactNode }) {
  return <Suspense fallback={<ScreenFallback />}>{children}</Suspense>;
}

/**
 * While a screen's chunk loads: a small spinner over the map, pointer-transparent, so the shell
 * (map, top bar, navigation) stays where it is and nothing jumps.
 */
export function ScreenFallback() {
  return (
    <div
      role="status"
      aria-label={SHELL_MESSAGES.loading}
      data-testid="screen-loading"
      className="pointer-events-none fixed inset-0 z-[60] flex items-center justify-center text-brand-500"
    >
      <Spinner className="size-8 border-[3px]" />
    </div>
  );
}
