export { GATEWAY_ENV, type GatewayConfig } from './config/gateway.env.js';
export { GatewayModule } from './gateway.module.js';
export { connectGrpcServer, GRPC_PACKAGE_DEFINITION } from './grpc/grpc-server.js';
export { resolveSpecPaths, SPEC_DIR_METADATA } from './runs/usecases/create-run.usecase.js';
export { SERVE_ENV, ServeConfigError, type ServeOptions, serve } from './serve.js';
