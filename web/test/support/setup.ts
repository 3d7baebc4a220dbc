/**
 * Every web test file: `findBy…` and `waitFor` wait for what the user would see for up to 10 s
 * (Testing Library's default is 1 s). A wait ends as soon as the thing shows, so a passing test
 * costs nothing more, and a busy machine (a lazy screen's chunk, jsdom's first render) does not
 * fail it.
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 10_000 });
