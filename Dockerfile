# One image for every Precis service; the command picks the service:
#   docker build -t precis .
#   docker run precis node apps/verifier/dist/main.js     (gateway when no command is given)
# The migrations Job and the services' init containers run `node packages/db/dist/migrate.js`.
# docker-compose.yml, deploy/kubernetes and `npm run test:containers` use these command lines.
# BASE: any image with Node 22.12+ and npm at /usr/local/bin; test:containers builds one locally
# with Node 24 (scripts/lib/node-lts.mjs).
ARG BASE=node:24-bookworm-slim

# Only the workspaces the six services depend on (turbo prune): their manifests first, so the
# dependency layer is rebuilt only when a package.json or the lockfile changes.
FROM ${BASE} AS prune
WORKDIR /src
COPY . .
ENV TURBO_TELEMETRY_DISABLED=1
RUN npx --yes turbo@2.11.11 prune @precis/gateway @precis/ingestion @precis/retrieval \
      @precis/summarization @precis/verifier @precis/scoring --docker --out-dir /pruned

FROM ${BASE} AS build
WORKDIR /app
ENV TURBO_TELEMETRY_DISABLED=1
COPY --from=prune /pruned/json/ ./
# `npm ci` rejects a lockfile written without other platforms' optional builds (see STACK.md).
RUN npm install --no-audit --no-fund
COPY --from=prune /pruned/full/ ./
COPY .swcrc ./
COPY scripts/build-package.mjs ./scripts/
RUN npx turbo run build --output-logs=errors-only \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf .turbo node_modules/.cache \
 && chmod -R a+rX /app

FROM ${BASE}
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and run as uid 1000: the service cannot change its own code, and the root
# filesystem can be mounted read-only (only /tmp needs to be writable).
COPY --from=build /app /app
USER 1000:1000
# docker-compose.yml uses this check; the Kubernetes readiness probe asks the same endpoint.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.HTTP_PORT || 8080) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
EXPOSE 8080
# node is PID 1 and receives SIGTERM itself (graceful shutdown, exit 0).
CMD ["node", "apps/gateway/dist/main.js"]
