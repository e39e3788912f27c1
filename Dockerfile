# The base is an argument: python:3.11-slim by default; any Debian bookworm root file system with
# python3, python3-venv and ca-certificates works too (`make image` makes one from Debian's
# packages when no registry image can be pulled).
ARG BASE=python:3.11-slim

FROM ${BASE} AS wheels
WORKDIR /src
COPY pyproject.toml README.md ./
COPY client client
COPY sandbox sandbox
COPY server server
COPY builtins builtins
COPY migrations migrations
# The project's wheels (the server's and its client's) and every wheel they need, built by the
# image's own Python (its markers decide). A build behind a TLS-inspecting proxy passes the
# proxy's CA bundle as the secret `ca` (`make image` passes the host's); it is used for this
# step only and is not kept.
RUN --mount=type=secret,id=ca,target=/run/secrets/ca \
    --mount=type=cache,target=/root/.cache/pip \
    if [ -s /run/secrets/ca ]; then export PIP_CERT=/run/secrets/ca; fi \
    && python3 -m venv /opt/build \
    && /opt/build/bin/pip wheel --wheel-dir /wheels ./client .

FROM ${BASE}
# libseccomp for the workers' seccomp layer
RUN apt-get update && apt-get install -y --no-install-recommends libseccomp2 \
    && rm -rf /var/lib/apt/lists/*
# a virtual environment (Debian's own python3 refuses installs into the system: PEP 668), filled
# from those wheels alone
RUN --mount=type=bind,from=wheels,source=/wheels,target=/wheels \
    python3 -m venv /opt/quiver \
    && /opt/quiver/bin/pip install --no-cache-dir --no-index --find-links /wheels quiver-registry
# The server starts as root so that every sandbox worker can drop to its own uid (61000+) in
# its own network namespace under seccomp; run the container with only the capabilities that
# needs: --cap-drop ALL --cap-add SETUID --cap-add SETGID --cap-add SYS_ADMIN --cap-add KILL
# (docs/deploy.md). Without them `quiver serve` refuses to start and says which layer is missing
# (QUIVER_REQUIRE_ISOLATION=false runs without it).
ENV PATH=/opt/quiver/bin:$PATH \
    QUIVER_DATA_DIR=/var/lib/quiver/data \
    QUIVER_CACHE_DIR=/var/lib/quiver/cache \
    QUIVER_HOST=0.0.0.0 \
    QUIVER_PORT=8000 \
    PYTHONUNBUFFERED=1
WORKDIR /var/lib/quiver
# the Python WASM runner and QuickJS, built into the image (the server would otherwise build
# them at start); the cache is writable by root only: workers load it as native code
RUN mkdir -m 0700 -p /var/lib/quiver/cache /var/lib/quiver/data && quiver wasm-runner
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python3", "-c", "import os, sys, urllib.request; port = os.environ.get('QUIVER_PORT', '8000'); sys.exit(urllib.request.urlopen(f'http://127.0.0.1:{port}/healthz', timeout=2).status != 200)"]
CMD ["quiver", "serve"]
