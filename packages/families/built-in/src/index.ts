export { builtInFamilies, GENERIC_DATASET_KINDS } from './built-in-families.js';
