"""Python bindings of the meshsdy dialects: `mesh` and `sdy`."""
