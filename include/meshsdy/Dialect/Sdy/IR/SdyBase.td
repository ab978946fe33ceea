//===- SdyBase.td - sdy dialect definition -----------------*- tablegen -*-===//
//
// The `sdy` (Shardy) dialect: axis-based tensor shardings.
// Spec: shared/seeds/001 (the doc mlir-tblgen prints for Shardy's TableGen).
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_IR_SDYBASE_TD
#define MESHSDY_DIALECT_SDY_IR_SDYBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Sdy_Dialect : Dialect {
  let name = "sdy";
  let cppNamespace = "::mlir::sdy";
  let summary = "The Shardy (SDY) dialect";
  let description = [{
    The Shardy (SDY) dialect defines an axis-based tensor sharding
    representation and additional API components to attach shardings to tensors.

    Version log:
      0.0.1: Add unreduced axes to TensorShardingAttr.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Registers the attributes (defined with their storage in SdyAttrs.cpp).
    void registerAttributes();
  }];
}

class Sdy_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Sdy_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

class Sdy_Op<string mnemonic, list<Trait> traits = []>
    : Op<Sdy_Dialect, mnemonic, traits>;

#endif // MESHSDY_DIALECT_SDY_IR_SDYBASE_TD
