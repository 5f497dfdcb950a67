# One image for every service and the checkout page; the command names the entry point, e.g.
#   docker run stablepay services/gateway/dist/main.js
#   docker run stablepay apps/checkout/server/dist/main.js
#   docker run stablepay deploy/migrate.mjs payments     (a service's migrations, then exit)
# Node 24 LTS on Debian bookworm, pinned by digest so a rebuild gets the same base (the tag moves with
# Debian's security updates). To move on: `docker buildx imagetools inspect node:24-bookworm-slim`
# prints the current index digest; keep the version in step with NODE_VERSION in .ci/run.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim@sha256:0e0ff40c39bc087845bfb27465a0df4ea419520094bc35842ff83dd8cbe6f9b6

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY packages ./packages
COPY services ./services
COPY apps ./apps
COPY deploy ./deploy
RUN npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app /app
# Mount points of the compose volumes, so new volumes are created owned by the image's user.
RUN mkdir -p /home/node/invoices /home/node/devnet && chown node:node /home/node/invoices /home/node/devnet
USER node
ENTRYPOINT ["node"]
CMD ["apps/stack/dist/main.js"]
