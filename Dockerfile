# syntax=docker/dockerfile:1
# Build: the official Bun image installs, tests and compiles extractd into one executable.
FROM oven/bun:1.4.5 AS build
WORKDIR /src
COPY package.json package-lock.json bunfig.toml tsconfig.json drizzle.config.ts ./
COPY scripts ./scripts
# Bun reads package-lock.json, so the image gets the versions CI tested. Of the install scripts,
# only ours runs: it packs ONNX Runtime's library for the binary (D161).
RUN bun install --ignore-scripts && bun scripts/pack-onnxruntime.mjs
COPY src ./src
COPY data ./data
COPY test ./test
# Some tests hold the README and docs/ to the code (the webhook snippet, the configuration table).
COPY README.md ./
COPY docs ./docs
# The browser test skips itself here (no Chromium in this stage); CI runs it.
RUN bun test && bun run build && mkdir -p /out/data

# Runtime: a minimal glibc base holding only the binary, run as a non-root user; the `cc` variant
# for libstdc++, which the libvips that decodes phone photos (D156) and ONNX Runtime (D161) link to.
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /src/dist/extractd /usr/local/bin/extractd
# The database directory must belong to the user the server runs as (65532 is distroless' nonroot).
COPY --from=build --chown=65532:65532 /out/data /data
WORKDIR /data
VOLUME ["/data"]
ENV HOST=0.0.0.0 PORT=8080 EXTRACTD_DB=/data/extractd.sqlite
EXPOSE 8080
USER nonroot
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
  CMD ["/usr/local/bin/extractd", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/extractd"]
CMD ["serve"]
