import { InMemoryProvider } from '../src/index.js';
import { describeRuntimeScenarios } from '../src/validation/index.js';

describeRuntimeScenarios({ createProvider: () => new InMemoryProvider() });
