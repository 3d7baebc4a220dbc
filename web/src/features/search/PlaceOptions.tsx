import type { PlaceDto } from '@moodmap/core';
import { PinIcon } from '../../ui/icons.tsx';
import { SearchOption } from './SearchDropdown.tsx';

/** Region and country under a place's name, without repeating the name (Paris, Paris). */
export function placeDetail(place: PlaceDto): string {
  return [place.region && place.region !== place.name ? place.region : null, place.countryName]
    .filter(Boolean)
    .join(', ');
}

export const placeOptionId = (listId: string, place: PlaceDto) => `${listId}-place-${place.id}`;

/** The options of a place list: the top bar's 'Lieux' section (listed first), the picker's dropdown. */
export function PlaceOptions({
  listId,
  places,
  highlight,
  waiting,
  onHighlight,
  onPick,
}: {
  listId: string;
  places: readonly PlaceDto[];
  highlight: number;
  waiting: boolean;
  onHighlight: (index: number) => void;
  onPick: (place: PlaceDto) => void;
}) {
  return places.map((place, i) => {
    const active = i === highlight;
    const detail = placeDetail(place);
    return (
      <SearchOption
        key={place.id}
        id={placeOptionId(listId, place)}
        active={active}
        dimmed={waiting}
        testId="place-result"
        data={{ 'data-place-id': String(place.id) }}
        onHover={() => onHighlight(i)}
        onPick={() => onPick(place)}
      >
        <span
          className="flex size-9 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-white/10 dark:text-slate-300"
          aria-hidden="true"
        >
          <PinIcon size={17} />
        </span>
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-semibold text-ink-900 dark:text-white">{place.name}</span>
          {detail ? (
            <span className="block truncate text-[13px] text-slate-600 dark:text-slate-300">{detail}</span>
          ) : null}
        </span>
      </SearchOption>
    );
  });
}
