// @vitest-environment jsdom
/**
 * What a screen reader hears of the markers, the order Tab reaches them and the
 * list view sorts them in, the keyboard layer's buttons, focus kept in and given back by dialogs,
 * and reduced motion turning camera flights into jumps.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { MarkerNav } from '../src/features/map/markers/MarkerNav.tsx';
import { byDistanceFrom, groupName, markerName, sortPosts } from '../src/features/map/markers/marker-names.ts';
import type { NavItem } from '../src/features/map/markers/nav-items.ts';
import { toMarker } from '../src/features/posts/post-types.ts';
import { Dialog } from '../src/ui/Dialog.tsx';
import { moveCamera } from '../src/ui/motion.ts';
import { makePost } from './support/posts.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NOW = new Date('2026-03-01T10:05:00.000Z');
const marker = (id: string, over: Parameters<typeof makePost>[0] = {}) => toMarker(makePost({ id, ...over }));

describe('marker names', () => {
  it('names a post by author, mood and relative time, and a group by its count', () => {
    expect(
      markerName(marker('a', { nickname: 'Léa', category: 'happy', createdAt: '2026-03-01T10:00:00.000Z' }), NOW),
    ).toBe('Publication de Léa, Joyeux, il y a 5 minutes');
    expect(
      markerName(marker('b', { nickname: 'Marc', category: 'angry', createdAt: '2026-03-01T08:05:00.000Z' }), NOW),
    ).toBe('Publication de Marc, En colère, il y a 2 heures');
    expect(groupName(12)).toBe('12 publications ici');
  });
});

describe('reading order and list sorting', () => {
  const centre = { latitude: 48.8566, longitude: 2.3522 };
  const far = marker('far', { latitude: 48.9, longitude: 2.3522, createdAt: '2026-03-01T10:04:00.000Z' });
  const near = marker('near', { latitude: 48.857, longitude: 2.3522, createdAt: '2026-03-01T09:00:00.000Z' });
  const middle = marker('middle', { latitude: 48.85, longitude: 2.36, createdAt: '2026-03-01T10:01:00.000Z' });

  it('puts the nearest to the map centre first', () => {
    expect(byDistanceFrom([far, near, middle], centre).map((m) => m.id)).toEqual(['near', 'middle', 'far']);
    expect(sortPosts([far, near, middle], 'distance', centre).map((m) => m.id)).toEqual(['near', 'middle', 'far']);
  });

  it('sorts newest first by time', () => {
    expect(sortPosts([near, middle, far], 'time', centre).map((m) => m.id)).toEqual(['far', 'middle', 'near']);
  });

  it('reads points at the same distance north to south, then west to east', () => {
    const north = marker('n', { latitude: 1, longitude: 0 });
    const south = marker('s', { latitude: -1, longitude: 0 });
    const west = marker('w', { latitude: 0, longitude: -1 });
    const east = marker('e', { latitude: 0, longitude: 1 });
    expect(byDistanceFrom([south, east, west, north], { latitude: 0, longitude: 0 }).map((m) => m.id)).toEqual([
      'n',
      'w',
      'e',
      's',
    ]);
  });
});

function item(key: string, name: string, count = 1): NavItem {
  return {
    key,
    name,
    latitude: 0,
    longitude: 0,
    count,
    postId: count === 1 ? key : undefined,
    target: { kind: 'group', featureId: 1 },
  };
}

describe('the keyboard layer over the map', () => {
  it('lists the markers as buttons by name, Enter activates one, and the rest lead to the list', () => {
    const items = [
      item('p1', 'Publication de Léa, Joyeux, il y a 5 minutes'),
      item('g1', '12 publications ici', 12),
      item('p2', 'Publication de Noa, Fête, il y a 1 heure'),
      item('p3', 'Publication de Sam, Amour, il y a 2 heures'),
    ];
    const activated: string[] = [];
    const focused: (string | null)[] = [];
    const more = vi.fn();
    render(
      <MarkerNav
        items={items}
        max={2}
        project={() => ({ x: 40, y: 60 })}
        onActivate={(i) => activated.push(i.key)}
        onFocusItem={(i) => focused.push(i?.key ?? null)}
        onMore={more}
      />,
    );
    const nav = screen.getByRole('navigation', { name: 'Publications sur la carte' });
    const buttons = screen.getAllByTestId('marker-button');
    expect(buttons.map((b) => b.textContent)).toEqual([
      'Publication de Léa, Joyeux, il y a 5 minutes',
      '12 publications ici',
    ]);
    expect(nav.querySelector('ol')).not.toBeNull();
    // Hidden until focused; then drawn at the marker's pixel.
    expect(buttons[0]!.className).toContain('sr-only');
    act(() => buttons[0]!.focus());
    expect(buttons[0]!.className).not.toContain('sr-only');
    expect(buttons[0]!.style.left).toBe('40px');
    expect(focused).toEqual(['p1']);
    fireEvent.click(buttons[0]!);
    expect(activated).toEqual(['p1']);
    act(() => buttons[0]!.blur());
    expect(focused).toEqual(['p1', null]);
    // Beyond the first two: two posts more.
    const link = screen.getByTestId('marker-more');
    expect(link.textContent).toBe('2 autres publications dans la liste');
    fireEvent.click(link);
    expect(more).toHaveBeenCalledOnce();
  });
});

describe('dialogs keep and give back the focus', () => {
  function Page() {
    const [open, setOpen] = useState(false);
    const [busy, setBusy] = useState(false);
    return (
      <>
        <button
          type="button"
          data-testid="opener"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            setOpen(true);
          }}
        >
          Ouvrir
        </button>
        {open ? (
          <Dialog
            title="Aide"
            onClose={() => {
              setOpen(false);
              setBusy(false);
            }}
            testId="dialog"
          >
            <input data-testid="first" autoFocus />
            <button type="button" data-testid="last">
              OK
            </button>
          </Dialog>
        ) : null}
      </>
    );
  }

  it('traps Tab inside, closes on Escape, and focuses the opener again even if it lost the focus on the way', () => {
    render(<Page />);
    const opener = screen.getByTestId('opener');
    act(() => opener.focus());
    // The opener is disabled as it opens the dialog (focus drops to the body), and a field inside focuses itself first.
    act(() => fireEvent.click(opener));
    const dialog = screen.getByTestId('dialog');
    expect(dialog.contains(document.activeElement)).toBe(true);
    act(() => screen.getByTestId('last').focus());
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    act(() => void fireEvent.keyDown(document, { key: 'Escape' }));
    expect(screen.queryByTestId('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('opener'));
  });
});

describe('reduced motion', () => {
  function fakeMap() {
    return { flyTo: vi.fn(), easeTo: vi.fn(), jumpTo: vi.fn() };
  }
  const prefers = (reduce: boolean) =>
    vi.stubGlobal('matchMedia', (q: string) => ({
      matches: reduce && q.includes('reduce'),
      addEventListener() {},
      removeEventListener() {},
    }));

  it('flies when motion is allowed and jumps when it is reduced', () => {
    prefers(false);
    const map = fakeMap();
    moveCamera(map, { center: [2, 48], zoom: 15, duration: 800 });
    expect(map.flyTo).toHaveBeenCalledWith({ center: [2, 48], zoom: 15, duration: 800, essential: true });
    prefers(true);
    const still = fakeMap();
    moveCamera(still, { center: [2, 48], zoom: 15, duration: 800 }, 'ease');
    expect(still.jumpTo).toHaveBeenCalledWith({ center: [2, 48], zoom: 15 });
    expect(still.flyTo).not.toHaveBeenCalled();
    expect(still.easeTo).not.toHaveBeenCalled();
  });
});
