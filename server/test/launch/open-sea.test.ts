/** The open-sea text (no geocoder result means open sea): said when the check knows it is sea. */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { createApproximator } from '../../src/modules/posts/approximate.ts';
import { createPost } from '../../src/modules/posts/service.ts';
import { geoFixture } from '../helpers/geo-fixture.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member } from './fixtures.ts';

describe.each(engines)('open sea on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const input = {
    category: 'happy' as const,
    content: 'Au large',
    latitude: -21.5,
    longitude: 56.5,
    usePulseEffect: false,
  };

  it("refuses a point the geocoder knows is sea with 'Cette position est en pleine mer...', and one off the land polygons with the land-only text", async () => {
    const { id } = await member(t);
    const db = t.database.db;
    const approximate = createApproximator(geoFixture());
    await expect(createPost({ db, isOnLand: async () => 'sea', approximate }, id, input)).rejects.toMatchObject({
      status: 400,
      code: 'open_sea',
      message: MESSAGES.open_sea,
    });
    await expect(createPost({ db, isOnLand: async () => 'off_land', approximate }, id, input)).rejects.toMatchObject({
      status: 400,
      code: 'not_on_land',
      message: MESSAGES.not_on_land,
    });
  });
});
