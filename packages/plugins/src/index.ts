export { SummaryRole } from '@precis/contracts';
export { type PluginAnswer, PluginCaller, type PluginStep, type PluginTarget } from './plugin-caller.js';
export { PluginClient, PluginError } from './plugin-client.js';
