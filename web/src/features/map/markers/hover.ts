import type { Map as MapLibreMap, MapMouseEvent } from 'maplibre-gl';

/** What hover tracking needs of the map. */
export type HoverMap = Pick<MapLibreMap, 'on' | 'off' | 'isMoving' | 'getCanvas'>;

/**
 * Follows the pointer over the markers (a larger marker and a pointing cursor under a mouse),
 * but not while the map moves: during a drag the pointer sweeps across marker after marker, and
 * each one it crossed was hit-tested and drawn larger for a moment (a redraw of the highlight
 * source, a render of the markers component). The phone bench's pan frames measured the same
 * without that work (their cost is the map's own frames); what it spares is the flicker and the
 * work. A drag's start forgets the hovered marker; the next move after the map stops finds it again.
 * `hit` returns the hovered marker's feature id, or null; `onHover` hears each change.
 */
export function trackHover(
  map: HoverMap,
  hit: (point: MapMouseEvent['point']) => { id: number | null; pointer: boolean },
  onHover: (id: number | null) => void,
): () => void {
  let hovered: number | null = null;
  const set = (id: number | null, pointer: boolean) => {
    map.getCanvas().style.cursor = pointer ? 'pointer' : '';
    if (id === hovered) return;
    hovered = id;
    onHover(id);
  };
  const onMove = (event: MapMouseEvent) => {
    // A held button is a drag (MapLibre pans from the press); a moving map is a pan's inertia,
    // a fly-to or a zoom: the pointer's place on the map changes under it anyway.
    if (event.originalEvent.buttons !== 0 || map.isMoving()) return;
    const { id, pointer } = hit(event.point);
    set(id, pointer);
  };
  const onMoveStart = () => set(null, false);
  map.on('mousemove', onMove);
  map.on('movestart', onMoveStart);
  return () => {
    map.off('mousemove', onMove);
    map.off('movestart', onMoveStart);
  };
}
