// RUN: mesh-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'mesh.mesh' op axis 1 must have a positive or dynamic size, got 0}}
mesh.mesh @mesh_zero(shape = 2x0)

// -----

// expected-error @+1 {{'mesh.mesh' op axis 0 must have a positive or dynamic size, got -3}}
"mesh.mesh"() {sym_name = "mesh_negative", shape = array<i64: -3, 2>} : () -> ()

// -----

// expected-error @+1 {{'mesh.mesh' op expected a mesh of rank >= 1, got rank 0}}
"mesh.mesh"() {sym_name = "mesh_rank0", shape = array<i64>} : () -> ()

// -----

// expected-error @+1 {{Failed parsing dimension list}}
mesh.mesh @mesh_empty(shape = )

// -----

// expected-note @+1 {{see existing symbol definition here}}
mesh.mesh @mesh0(shape = 2)
// expected-error @+1 {{redefinition of symbol named 'mesh0'}}
mesh.mesh @mesh0(shape = 4)
