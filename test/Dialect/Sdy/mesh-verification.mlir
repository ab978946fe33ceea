// RUN: mesh-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{duplicate axis name "a"}}
sdy.mesh @mesh = <["a"=2, "a"=4]>

// -----

// expected-error @+1 {{device id must be non-negative, got -1}}
sdy.mesh @mesh = <[], device_ids=[-1]>

// -----

// expected-error @+1 {{a mesh without axes takes at most one device id, got 2}}
sdy.mesh @mesh = <[], device_ids=[0, 1]>

// -----

// expected-error @+1 {{device ids equal to iota(4) must be omitted}}
sdy.mesh @mesh = <["a"=2, "b"=2], device_ids=[0, 1, 2, 3]>

// -----

// expected-error @+1 {{number of device ids must match the product of the axis sizes: 3 != 4}}
sdy.mesh @mesh = <["a"=2, "b"=2], device_ids=[0, 2, 1]>

// -----

// expected-error @+1 {{sorted device ids must be iota(4), but device id 1 repeats}}
sdy.mesh @mesh = <["a"=2, "b"=2], device_ids=[0, 1, 1, 3]>

// -----

// expected-error @+1 {{sorted device ids must be iota(4), but device id 4 is out of range}}
sdy.mesh @mesh = <["a"=2, "b"=2], device_ids=[0, 4, 1, 3]>

// -----

// expected-error @+1 {{axis "a" must have a positive size, got 0}}
sdy.mesh @mesh = <["a"=0]>

// -----

// expected-error @+1 {{axis name must not be empty}}
sdy.mesh @mesh = <[""=2]>

// -----

func.func @mesh_in_function() {
  // expected-error @+1 {{'sdy.mesh' op expects parent op 'builtin.module'}}
  sdy.mesh @mesh = <["a"=2]>
  return
}

// -----

sdy.mesh @mesh_a_2 = <["a"=2]>
sdy.mesh @maximal = <[], device_ids=[5]>
sdy.mesh @empty = <[]>
// expected-note @-3 {{mesh @mesh_a_2}}
// expected-error @+1 {{'sdy.mesh' op all meshes in a module must have the same number of devices: 4 != 2 (mesh @mesh_a_2)}}
sdy.mesh @mesh_b_4 = <["b"=4]>

// -----

// expected-error @+1 {{the product of the axis sizes overflows int64}}
sdy.mesh @mesh = <["a"=4294967296, "b"=4294967296]>
