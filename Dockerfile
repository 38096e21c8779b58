# One image for every Precis service; the SERVICE build arg picks which app the container runs:
#   docker build --build-arg SERVICE=gateway -t precis-gateway .
# (docker-compose.yml builds all six from this file; deploy/kubernetes names them precis-<service>.)
# The migrations Job and the services' init containers run packages/db/dist/migrate.js from it.

# Only the workspaces the service depends on (turbo prune): their manifests first, so the
# dependency layer is rebuilt only when a package.json or the lockfile changes.
FROM node:20-bookworm-slim AS prune
WORKDIR /src
COPY . .
ARG SERVICE=gateway
RUN npx --yes turbo@2.11.11 prune @precis/${SERVICE} --docker --out-dir /pruned

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY --from=prune /pruned/json/ ./
# `npm ci` rejects a lockfile written without other platforms' optional builds (see STACK.md).
RUN npm install --no-audit --no-fund
COPY --from=prune /pruned/full/ ./
COPY .swcrc ./
COPY scripts/build-package.mjs ./scripts/
ARG SERVICE=gateway
RUN npx turbo run build --filter=@precis/${SERVICE}... \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
ARG SERVICE=gateway
ENV SERVICE=${SERVICE}
USER node
# The same check as the compose file's and the Kubernetes readiness probe's.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.HTTP_PORT || 8080) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# exec: node becomes PID 1 and receives SIGTERM itself (graceful shutdown, exit 0).
CMD ["sh", "-c", "exec node apps/${SERVICE}/dist/main.js"]
