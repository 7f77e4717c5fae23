import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fixture embedding models (copied from ../shared/models), loaded offline. */
export const FIXTURE_MODELS = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'models');
