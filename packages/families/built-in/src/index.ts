export { builtInFamilies, GENERIC_DATASET_KINDS } from './built-in-families.js';
export {
  FAMILIES_ENV,
  FamilyLoadError,
  familyModules,
  loadedFamilies,
  loadFamilies,
} from './load-families.js';
