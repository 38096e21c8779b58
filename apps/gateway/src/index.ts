export { bootstrap } from './bootstrap.js';
