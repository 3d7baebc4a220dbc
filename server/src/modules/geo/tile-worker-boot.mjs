// The tile worker's entry: a worker thread does not inherit tsx's loader hooks from the main
// thread (nor under Vitest), so they are registered here before the TypeScript worker loads.
import { register } from 'tsx/esm/api';

register();
await import('./tile-worker.ts');
