// RUN: mesh-opt %s -split-input-file -verify-diagnostics
// Error paths of the custom op directives (SdyOps.cpp).

func.func @stripped_shardings_not_a_list(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{expected '['}}
  sdy.manual_computation(%arg0) in_shardings=<@m, [{}]> out_shardings=[] manual_axes={} (%arg1: tensor<8xf32>) {
  } : (tensor<8xf32>) -> ()
  return
}

// -----

func.func @stripped_sharding_element(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{expected '<'}}
  sdy.manual_computation(%arg0) in_shardings=[@m] out_shardings=[] manual_axes={} (%arg1: tensor<8xf32>) {
  } : (tensor<8xf32>) -> ()
  return
}

// -----

func.func @region_without_arguments(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{expected '('}}
  sdy.named_computation<"f">(%arg0) {
  } : (tensor<8xf32>) -> ()
  return
}

// -----

func.func @region_argument_without_type(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{expected ':'}}
  sdy.named_computation<"f">(%arg0) (%arg1) {
  } : (tensor<8xf32>) -> ()
  return
}

// -----

func.func @constant_missing_attribute() {
  // expected-error @+1 {{expected attribute value}}
  %0 = sdy.constant : tensor<2xf32>
  return
}
