# syntax=docker/dockerfile:1
# Quiltboard's image: Next.js's standalone server with the project's entry, which applies the
# migrations to DATABASE_URL and then serves (server/entry.ts). Production files only, as
# the unprivileged `node` user; no demo data. `docker compose up` builds and runs it (docker-compose.yml).
#
#   docker build -t quiltboard .
#   docker run -e DATABASE_URL=postgresql://… -e NEXTAUTH_SECRET=… -e NEXTAUTH_URL=https://… -p 3000:3000 quiltboard
#   docker run -i -e DATABASE_URL=… -e NEXTAUTH_SECRET=… quiltboard node entry.mjs admin create you@example.org

FROM node:24-bookworm-slim AS build
WORKDIR /src
ENV NEXT_TELEMETRY_DISABLED=1
# The dependencies first (their layer is reused while package*.json stay the same); postinstall
# generates the Prisma client from the schema.
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma/schema.prisma prisma/schema.prisma
RUN npm ci --no-audit --no-fund
COPY . .
# next build, then the standalone directory completed: static assets, migrations, the HTTP preload
# and the bundled entry (scripts/app.ts ensureBuilt).
RUN npm run build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOSTNAME=0.0.0.0
WORKDIR /app
COPY --from=build --chown=node:node /src/.next/standalone ./
# The local file store's directory, owned by the server's user (a volume mounted there takes it over).
RUN mkdir -p .data/files && chown -R node:node .data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) lets the requests in flight finish before the server exits. The heap limit is
# scripts/app.ts APP_HEAP_MB: past it the process ends and the compose files' restart policy restarts it;
# the young generation's size is APP_SEMI_SPACE_MB, which says why.
STOPSIGNAL SIGTERM
CMD ["node", "--max-old-space-size=2048", "--max-semi-space-size=8", "entry.mjs"]
