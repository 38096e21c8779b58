import { builtInFamilies as shippedFamilies } from '@precis/families';

// The registry every service loads: the benchmarks run what the services run.
export const builtInFamilies = shippedFamilies();
