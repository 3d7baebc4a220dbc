// @vitest-environment jsdom
/**
 * A tap before the popups' chunk arrived (warm-up.ts) shows the popup's frame with a spinner,
 * never an empty frame (MarkerPopup's Suspense fallback).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { lazy, type ReactElement, Suspense } from 'react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { PopupFallback } from '../src/features/map/markers/PopupFallback.tsx';
import { toMarker } from '../src/features/posts/post-types.ts';
import { deferred } from './support/auth-fixtures.ts';
import { makePost } from './support/posts.ts';

afterEach(cleanup);

describe('the popup while its chunk loads', () => {
  it("shows the post's frame, busy, with its mood colour and 'Chargement...', then the popup itself", async () => {
    const chunk = deferred<{ default: () => ReactElement }>();
    const Popup = lazy(() => chunk.promise);
    const marker = toMarker(makePost({ id: 'p-7', category: 'party' }));
    render(
      <Suspense fallback={<PopupFallback marker={marker} />}>
        <Popup />
      </Suspense>,
    );
    const frame = screen.getByTestId('post-popup');
    expect(frame.getAttribute('data-post-id')).toBe('p-7');
    expect(frame.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status').getAttribute('aria-label')).toBe('Chargement...');
    // The mood's colour along the top, as on the card.
    expect((frame.firstElementChild as HTMLElement).style.backgroundColor).not.toBe('');
    await act(async () => chunk.resolve({ default: () => <p>carte</p> }));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByText('carte')).toBeTruthy();
  });

  it("shows a group's list frame the same way", () => {
    render(<PopupFallback />);
    expect(screen.getByRole('status').getAttribute('aria-label')).toBe('Chargement...');
    expect(screen.getByRole('status').closest('[aria-busy="true"]')).not.toBeNull();
  });
});
