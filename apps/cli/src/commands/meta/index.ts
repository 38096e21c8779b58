export { type MetaCommandDeps, registerMetaCommands } from './meta.command.js';
