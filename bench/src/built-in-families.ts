import { builtInFamilies as serviceFamilies } from '@precis/service';

// The registry every service loads: the benchmarks run what the services run.
export const builtInFamilies = serviceFamilies();
