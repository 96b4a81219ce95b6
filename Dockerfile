# syntax=docker/dockerfile:1
# Build stage: Bun from npm (as on a fresh machine), then the single executable.
FROM node:20-bookworm AS build
WORKDIR /src
RUN npm install -g bun@1.4.5
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile
COPY . .
RUN bun run build

# Runtime: Debian with Chromium's headless shell (what captures run in; docs/decisions/0012), the
# binary, and nothing else.
FROM debian:bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium-headless-shell fonts-liberation fonts-noto-color-emoji ca-certificates tini \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --system --create-home --uid 10001 app \
  && mkdir -p /data && chown app:app /data
COPY --from=build --chown=app:app /src/dist/design-intel /app/design-intel
USER app
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data CHROMIUM_PATH=/usr/lib/chromium/chromium-headless-shell
VOLUME ["/data"]
EXPOSE 3000
# The binary is its own probe: `healthcheck` asks /api/health/ready on this container's PORT and
# exits 0 or 1, so the slim image needs no curl or wget. A bare TCP check (bash's /dev/tcp) would
# call a server healthy while its disk is read-only or full; ready checks the database write, the
# migrations, free space and the capture browser. The probe loads only its own small module.
# start-period covers the first Chromium launch on a slow host.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["/app/design-intel", "healthcheck"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["/app/design-intel"]
