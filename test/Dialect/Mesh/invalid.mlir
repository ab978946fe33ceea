// RUN: mesh-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'mesh.mesh' op axis 1 must have a positive or dynamic size, got 0}}
mesh.mesh @mesh_zero(shape = 2x0)

// -----

// expected-error @+1 {{'mesh.mesh' op has more devices than an int64 can count: the product of its static axis sizes overflows}}
mesh.mesh @too_many(shape = 4294967296x4294967296)

// -----

// expected-error @+1 {{'mesh.mesh' op axis 0 must have a positive or dynamic size, got -3}}
"mesh.mesh"() {sym_name = "mesh_negative", shape = array<i64: -3, 2>} : () -> ()

// -----

// expected-error @+1 {{'mesh.mesh' op expected a mesh of rank >= 1, got rank 0}}
"mesh.mesh"() {sym_name = "mesh_rank0", shape = array<i64>} : () -> ()

// -----

// expected-error @+1 {{expected a mesh axis size or '?'}}
mesh.mesh @mesh_empty(shape = )

// -----

// expected-note @+1 {{see existing symbol definition here}}
mesh.mesh @mesh0(shape = 2)
// expected-error @+1 {{redefinition of symbol named 'mesh0'}}
mesh.mesh @mesh0(shape = 4)

// -----

// Malformed shapes are parse errors, never a crash of the parser.
// expected-error @+1 {{invalid mesh axis size 'a'}}
mesh.mesh @mesh_word(shape = 2xaxes)

// -----

// expected-error @+1 {{expected a mesh axis size or '?'}}
mesh.mesh @mesh_trailing_x(shape = 2x4x)

// -----

// `0x4` is 0 then 4, not hexadecimal.
// expected-error @+1 {{'mesh.mesh' op axis 0 must have a positive or dynamic size, got 0}}
mesh.mesh @mesh_hex(shape = 0x4)
