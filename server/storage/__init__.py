"""Storage: SQLAlchemy tables and the repositories that implement the core's ports."""
