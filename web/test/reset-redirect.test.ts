// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { applyResetRedirect, isRecoveryAddress, resetRedirectTarget } from '../src/app/reset-redirect.ts';

const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });

describe('reset-password URL forcing rule', () => {
  it('forces /reset-password for a recovery type in the query, keeping the query', () => {
    expect(resetRedirectTarget(at('/', '?type=recovery'))).toBe('/reset-password?type=recovery');
    expect(resetRedirectTarget(at('/profile', '?type=recovery&lang=fr', '#top'))).toBe(
      '/reset-password?type=recovery&lang=fr#top',
    );
  });

  it('forces it for both tokens in the query, without a type', () => {
    expect(resetRedirectTarget(at('/messages', '?access_token=A&refresh_token=R'))).toBe(
      '/reset-password?access_token=A&refresh_token=R',
    );
  });

  it('moves tokens and type found in the hash into the query string', () => {
    expect(
      resetRedirectTarget(
        at('/', '?x=1', '#access_token=A&expires_in=3600&refresh_token=R&token_type=bearer&type=recovery'),
      ),
    ).toBe('/reset-password?x=1&type=recovery&access_token=A&refresh_token=R#expires_in=3600&token_type=bearer');
    expect(resetRedirectTarget(at('/', '', '#access_token=A&refresh_token=R'))).toBe(
      '/reset-password?access_token=A&refresh_token=R',
    );
  });

  it('moves the hash into the query even when already on /reset-password', () => {
    expect(resetRedirectTarget(at('/reset-password', '', '#type=recovery&access_token=A&refresh_token=R'))).toBe(
      '/reset-password?type=recovery&access_token=A&refresh_token=R',
    );
  });

  it('does nothing when the address is already in its final form', () => {
    expect(resetRedirectTarget(at('/reset-password', '?type=recovery&access_token=A&refresh_token=R'))).toBeNull();
  });

  it('ignores partial tokens and other types', () => {
    expect(resetRedirectTarget(at('/', '?access_token=A'))).toBeNull();
    expect(resetRedirectTarget(at('/', '', '#refresh_token=R'))).toBeNull();
    expect(resetRedirectTarget(at('/', '?type=signup'))).toBeNull();
    expect(resetRedirectTarget(at('/profile'))).toBeNull();
    expect(isRecoveryAddress({ search: '?access_token=A', hash: '#other=1' })).toBe(false);
  });

  it('counts a token in the query and the other in the hash as both tokens', () => {
    expect(resetRedirectTarget(at('/', '?access_token=A', '#refresh_token=R'))).toBe(
      '/reset-password?access_token=A&refresh_token=R',
    );
  });

  it('keeps a query value rather than overwriting it from the hash', () => {
    expect(resetRedirectTarget(at('/', '?access_token=Q&refresh_token=R', '#access_token=H'))).toBe(
      '/reset-password?access_token=Q&refresh_token=R',
    );
  });

  describe('applied to the real address', () => {
    afterEach(() => window.history.replaceState(null, '', '/'));

    it('rewrites the address with replaceState (no new history entry)', () => {
      window.history.replaceState(null, '', '/create?a=b#access_token=A&refresh_token=R&type=recovery');
      const before = window.history.length;
      expect(applyResetRedirect(window)).toBe(true);
      expect(window.location.pathname).toBe('/reset-password');
      expect(new URLSearchParams(window.location.search).get('access_token')).toBe('A');
      expect(new URLSearchParams(window.location.search).get('refresh_token')).toBe('R');
      expect(new URLSearchParams(window.location.search).get('a')).toBe('b');
      expect(window.location.hash).toBe('');
      expect(window.history.length).toBe(before);
    });

    it('leaves an ordinary address alone', () => {
      window.history.replaceState(null, '', '/profile?tab=1#x');
      expect(applyResetRedirect(window)).toBe(false);
      expect(window.location.pathname + window.location.search + window.location.hash).toBe('/profile?tab=1#x');
    });
  });
});
