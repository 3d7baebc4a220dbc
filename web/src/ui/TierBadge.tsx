/**
 * Membership tier badge (display only; docs/product.md, Profiles). The order in which flags win
 * differs by place: multi, plus, pro, premium in the profile modal; plus, multi, pro, premium on
 * the public profile page. No flag: free, shown as 'Gratuit' where a profile is shown;
 * `showFree={false}` leaves it out beside every comment.
 */
export type Tier = 'Multi' | 'Plus' | 'Pro' | 'Premium';
export type TierPlace = 'modal' | 'page';

export interface TierFlags {
  isPremium?: boolean;
  isPro?: boolean;
  isPlus?: boolean;
  isMulti?: boolean;
}

const PRECEDENCE: Record<TierPlace, readonly (readonly [keyof TierFlags, Tier])[]> = {
  modal: [
    ['isMulti', 'Multi'],
    ['isPlus', 'Plus'],
    ['isPro', 'Pro'],
    ['isPremium', 'Premium'],
  ],
  page: [
    ['isPlus', 'Plus'],
    ['isMulti', 'Multi'],
    ['isPro', 'Pro'],
    ['isPremium', 'Premium'],
  ],
};

export function tierOf(flags: TierFlags, place: TierPlace): Tier | null {
  return PRECEDENCE[place].find(([flag]) => flags[flag] === true)?.[1] ?? null;
}

const COLOURS: Record<Tier, string> = {
  Multi: 'from-fuchsia-500 to-violet-brand',
  Plus: 'from-sky-500 to-brand-500',
  Pro: 'from-ink-800 to-ink-600',
  Premium: 'from-amber-400 to-orange-500',
};

export const FREE_TIER = 'Gratuit';

export function TierBadge({
  flags,
  place,
  showFree = true,
}: {
  flags: TierFlags;
  place: TierPlace;
  showFree?: boolean;
}) {
  const tier = tierOf(flags, place);
  if (!tier) {
    if (!showFree) return null;
    return (
      <span
        data-testid="tier-badge"
        className="inline-flex items-center rounded-full bg-slate-200 px-2 py-0.5 text-[11px] font-bold tracking-wide text-slate-700 dark:bg-white/10 dark:text-slate-200"
      >
        {FREE_TIER}
      </span>
    );
  }
  return (
    <span
      data-testid="tier-badge"
      className={`inline-flex items-center rounded-full bg-gradient-to-r px-2 py-0.5 text-[11px] font-bold tracking-wide text-white ${COLOURS[tier]}`}
    >
      {tier}
    </span>
  );
}
