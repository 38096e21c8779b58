import { bootstrap } from './bootstrap.js';

await bootstrap();
