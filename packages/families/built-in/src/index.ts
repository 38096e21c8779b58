export { builtInFamilies } from './built-in-families.js';
