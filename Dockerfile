# personhood strategy-server: score-api's api-v2 (api-post) over this package's strategies.
# docs/strategy-server.md says how to configure it; the answer store lives in the /data volume.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8788
ENV HOST=0.0.0.0 PORT=8788 PERSONHOOD_STRATEGY_STORE=/data/answers.log
HEALTHCHECK --interval=30s --timeout=5s CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8788) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# Pass --config /config/strategy-server.json (mounted) or configure through the environment.
# test/docker/dockerfile.test.ts replays these steps (no container engine needed): keep them plain.
ENTRYPOINT ["node", "bin/personhood.js", "strategy-server"]
