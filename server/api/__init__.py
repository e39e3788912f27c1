"""FastAPI glue only: the app factory, dependencies, problem responses and routes."""
