# Build: docker build -t skirmish .   Run: docker run -p 8080:8080 -v skirmish-data:/data skirmish
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --bin skirmish

FROM debian:bookworm-slim
RUN useradd --system --home /data skirmish && mkdir -p /data && chown skirmish /data
COPY --from=build /src/target/release/skirmish /usr/local/bin/skirmish
USER skirmish
WORKDIR /data
ENV SKIRMISH_BIND=0.0.0.0:8080 \
    SKIRMISH_DATABASE_URL=/data/skirmish.db
EXPOSE 8080
ENTRYPOINT ["skirmish"]
CMD ["serve"]
