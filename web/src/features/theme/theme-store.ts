import { create } from 'zustand';
import { STORAGE_KEYS, readJson, writeJson } from '../../lib/storage.ts';

/** Light/dark theme: stored locally, defaulting to the system preference. */
export type Theme = 'light' | 'dark';

/** Browser chrome colour per theme: the land colour of each basemap. */
const THEME_COLOR: Record<Theme, string> = { light: '#f4f1ea', dark: '#0f1b2d' };

function systemTheme(): Theme {
  try {
    return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

export function storedTheme(): Theme | null {
  const value = readJson(STORAGE_KEYS.theme);
  return value === 'light' || value === 'dark' ? value : null;
}

export function initialTheme(): Theme {
  return storedTheme() ?? systemTheme();
}

/** Puts the theme on <html> (Tailwind's `dark` variant) and on the browser chrome. */
export function applyTheme(theme: Theme, doc: Document = document): void {
  const root = doc.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  for (const meta of doc.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    meta.content = THEME_COLOR[theme];
  }
}

interface ThemeState {
  theme: Theme;
  toggle: () => void;
  setTheme: (theme: Theme) => void;
}

export const useThemeStore = create<ThemeState>()((set, get) => ({
  theme: initialTheme(),
  toggle: () => get().setTheme(get().theme === 'dark' ? 'light' : 'dark'),
  setTheme: (theme) => {
    writeJson(STORAGE_KEYS.theme, theme);
    set({ theme });
  },
}));

/** Keeps <html> in sync and follows the system until the user picks a theme. */
export function startThemeSync(): () => void {
  applyTheme(useThemeStore.getState().theme);
  const unsubscribe = useThemeStore.subscribe((state) => applyTheme(state.theme));
  const media = window.matchMedia?.('(prefers-color-scheme: dark)');
  const onSystemChange = (event: MediaQueryListEvent) => {
    if (storedTheme() === null) useThemeStore.setState({ theme: event.matches ? 'dark' : 'light' });
  };
  media?.addEventListener?.('change', onSystemChange);
  return () => {
    unsubscribe();
    media?.removeEventListener?.('change', onSystemChange);
  };
}
