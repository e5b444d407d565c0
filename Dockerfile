# Build:  docker build -t skirmish .
# First run: the server listens on 0.0.0.0 in the container, so it needs an API key (with none it
# refuses to start, by design). Supply one as a secrets file; only its SHA-256 digest is stored:
#   openssl rand -hex 32 > skirmish_api_key     # clients send: Authorization: Bearer <that key>
#   docker run -p 8080:8080 -v skirmish-data:/data \
#     -v "$PWD/skirmish_api_key:/run/secrets/skirmish_api_key:ro" \
#     -e SKIRMISH_API_KEY_FILE=/run/secrets/skirmish_api_key -e SKIRMISH_API_KEY_TENANT=guild skirmish
# (or -e SKIRMISH_API_KEY=<key>). More keys: docker exec <container> skirmish keys create --tenant NAME
FROM rust:1.95-bookworm AS build
WORKDIR /src
# Dependencies in their own layer, built against stub sources: reused until a manifest or
# Cargo.lock changes.
COPY Cargo.toml Cargo.lock ./
COPY domain/Cargo.toml domain/
COPY db/Cargo.toml db/
COPY api/Cargo.toml api/
COPY tests/Cargo.toml tests/
COPY bench/Cargo.toml bench/
COPY scripts/stub-sources.sh scripts/
RUN sh scripts/stub-sources.sh && cargo build --release --locked --bin skirmish
# Then the project itself. Touching the crate roots makes cargo rebuild them over the stubs.
COPY . .
RUN touch domain/src/lib.rs db/src/lib.rs api/src/lib.rs api/src/main.rs \
    && cargo build --release --locked --bin skirmish

FROM debian:bookworm-slim
# Webhook deliveries verify HTTPS with Mozilla's roots compiled into the binary; the system store
# is installed too, so that an operator's own CA (update-ca-certificates) is trusted as well.
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --system --home /data skirmish && mkdir -p /data && chown skirmish /data
COPY --from=build /src/target/release/skirmish /usr/local/bin/skirmish
USER skirmish
WORKDIR /data
VOLUME ["/data"]
ENV SKIRMISH_BIND=0.0.0.0:8080 \
    SKIRMISH_DATABASE_URL=/data/skirmish.db
EXPOSE 8080
# `skirmish healthcheck` asks /healthz on the address in SKIRMISH_BIND: no curl in a slim image.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["skirmish", "healthcheck"]
ENTRYPOINT ["skirmish"]
CMD ["serve"]
