"""Independent Python references of the C++ models, for cross-checks (not part of the package)."""
