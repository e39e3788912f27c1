"""The registry core: definitions, resolution, snapshots and provider formats.

Pure Python over ports; imports neither FastAPI nor SQLAlchemy (a test enforces it).
"""
