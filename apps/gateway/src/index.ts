export { bootstrap } from './bootstrap.js';
export { GATEWAY_ENV, type GatewayConfig } from './config/gateway.env.js';
export { GatewayModule } from './gateway.module.js';
export { GRPC_PACKAGE_DEFINITION } from './grpc/grpc-server.js';
export { resolveSpecPaths, SPEC_DIR_METADATA } from './runs/usecases/create-run.usecase.js';
