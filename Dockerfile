# syntax=docker/dockerfile:1
# The Affiliate Job Intake Service in one image: `intake serve` by default; give another command
# (`worker`, `db migrate`, `keys create ...`) to run that instead. docs/deploy.md explains each line.
#
#   docker build -t intake .
#   docker run -e INTAKE_DEMO_DATA=true -p 8080:8080 intake          # a demo on the embedded store

# ---- build: the locked dependency tree, the release profile -------------------------------------------
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p intake \
    && install -m 0755 target/release/intake /usr/local/bin/intake

# ---- runtime: the binary, CA certificates (TLS to PostgreSQL, webhooks), and a user that is not root --
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 intake \
    && useradd --system --uid 10001 --gid intake --home-dir /var/lib/intake --shell /usr/sbin/nologin intake \
    && install -d -o intake -g intake -m 0750 /var/lib/intake /var/lib/intake/images
COPY --from=build /usr/local/bin/intake /usr/local/bin/intake
WORKDIR /var/lib/intake
# The data dir (embedded store, photos, master.key) is the volume. Both listeners are on all of the
# container's interfaces; publish only 8080, and let only the scraper reach 9090.
ENV INTAKE_DATA_DIR=/var/lib/intake \
    INTAKE_LISTEN=0.0.0.0:8080 \
    INTAKE_ADMIN_LISTEN=0.0.0.0:9090 \
    INTAKE_LOG_FORMAT=json \
    INTAKE_DEMO_DATA=false
VOLUME ["/var/lib/intake"]
EXPOSE 8080 9090
USER intake:intake
# The admin listener's /readyz: the process is up and its store answers (serve and worker alike).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["intake", "health", "http://127.0.0.1:9090/readyz"]
ENTRYPOINT ["intake"]
CMD ["serve"]
