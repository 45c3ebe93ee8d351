# Server image: builds the release binary and runs it with the C libraries it links.
FROM swift:6.1-bookworm AS build
WORKDIR /src
COPY . .
RUN scripts/setup && swift build -c release --product karaoke \
 && cp "$(swift build -c release --show-bin-path)/karaoke" /usr/local/bin/karaoke

FROM swift:6.1-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends \
      libpulse0 libfftw3-single3 libwebsockets17 libsndfile1 librubberband2 libsqlite3-0 libxml2 libqrencode4 libgd3 \
      libfluidsynth3 timgm6mb-soundfont libpq5 libsoxr0 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/bin/karaoke /usr/local/bin/karaoke
COPY --from=build /src/public /app/public
COPY --from=build /src/songs /app/songs
WORKDIR /app
EXPOSE 8080
CMD ["karaoke", "serve", "--port", "8080", "--host", "0.0.0.0"]
