"""Native extension of meshsdy (`_meshsdy`), built by CMake."""
