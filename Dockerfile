# One image for every Precis service; the SERVICE build arg picks which app the container runs:
#   docker build --build-arg SERVICE=gateway -t precis-gateway .
# (docker-compose.yml builds all six from this file.)

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json tsconfig.json .swcrc ./
COPY scripts ./scripts
COPY proto ./proto
COPY packages ./packages
COPY apps ./apps
# `npm ci` rejects a lockfile written without other platforms' optional builds (see STACK.md).
RUN npm install --no-audit --no-fund
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
# exec: node becomes PID 1 and receives SIGTERM itself (graceful shutdown, exit 0).
CMD ["sh", "-c", "exec node apps/${SERVICE}/dist/main.js"]
