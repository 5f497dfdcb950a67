# One image for every service and the checkout page; the command names the entry point, e.g.
#   docker run stablepay services/gateway/dist/main.js
#   docker run stablepay apps/checkout/server/dist/main.js
#   docker run stablepay deploy/migrate.mjs payments     (a service's migrations, then exit)
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY packages ./packages
COPY services ./services
COPY apps ./apps
COPY deploy ./deploy
RUN npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app /app
# Mount points of the compose volumes, so new volumes are created owned by the image's user.
RUN mkdir -p /home/node/invoices /home/node/devnet && chown node:node /home/node/invoices /home/node/devnet
USER node
ENTRYPOINT ["node"]
CMD ["apps/stack/dist/main.js"]
