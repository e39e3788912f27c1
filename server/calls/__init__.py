"""The call pipeline: resolve → gate → validate arguments → run → envelope → log."""
