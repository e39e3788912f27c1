FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY sandbox sandbox
COPY server server
COPY builtins builtins
COPY migrations migrations
RUN pip install --no-cache-dir build && python -m build --wheel --outdir /wheels

FROM python:3.11-slim
# libseccomp for the workers' seccomp layer
RUN apt-get update && apt-get install -y --no-install-recommends libseccomp2 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
# The server starts as root so that every sandbox worker can drop to its own uid (61000+) in
# its own network namespace under seccomp; run the container with only the capabilities that
# needs: --cap-drop ALL --cap-add SETUID --cap-add SETGID --cap-add SYS_ADMIN --cap-add KILL
# (docs/deploy.md). Without them `quiver serve` refuses to start and says which layer is missing
# (QUIVER_REQUIRE_ISOLATION=false runs without it).
ENV QUIVER_DATA_DIR=/var/lib/quiver/data \
    QUIVER_CACHE_DIR=/var/lib/quiver/cache \
    QUIVER_HOST=0.0.0.0 \
    QUIVER_PORT=8000 \
    PYTHONUNBUFFERED=1
WORKDIR /var/lib/quiver
# the Python WASM runner, built into the image (the server would otherwise build it at start);
# its cache is writable by root only: workers load it as native code
RUN mkdir -m 0700 -p /var/lib/quiver/cache /var/lib/quiver/data && quiver wasm-runner
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"
CMD ["quiver", "serve"]
