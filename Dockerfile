FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY sandbox sandbox
COPY server server
COPY builtins builtins
COPY migrations migrations
RUN pip install --no-cache-dir build && python -m build --wheel --outdir /wheels

FROM python:3.11-slim
RUN useradd --system --uid 10001 --home-dir /var/lib/quiver --create-home quiver
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER quiver
WORKDIR /var/lib/quiver
# the Python WASM runner, built into the image (the server would otherwise build it at start)
RUN quiver wasm-runner
ENV QUIVER_DATA_DIR=/var/lib/quiver/data \
    QUIVER_HOST=0.0.0.0 \
    QUIVER_PORT=8000 \
    PYTHONUNBUFFERED=1
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"
CMD ["quiver", "serve"]
