//===- MeshDialect.cpp - mesh dialect, attributes and types ---------------===//

#include "meshsdy/Dialect/Mesh/IR/MeshDialect.h"
#include "meshsdy/Dialect/Mesh/IR/MeshAttrs.h"
#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mesh;

#include "meshsdy/Dialect/Mesh/IR/MeshDialect.cpp.inc"
#include "meshsdy/Dialect/Mesh/IR/MeshEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "meshsdy/Dialect/Mesh/IR/MeshAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "meshsdy/Dialect/Mesh/IR/MeshTypes.cpp.inc"

namespace {
/// Annotations and collectives mean the same in a callee and in its caller
/// (a collective names its mesh by symbol): calls holding them may be
/// inlined.
struct MeshInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void MeshDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "meshsdy/Dialect/Mesh/IR/MeshAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "meshsdy/Dialect/Mesh/IR/MeshTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "meshsdy/Dialect/Mesh/IR/MeshOps.cpp.inc"
      >();
  addInterfaces<MeshInlinerInterface>();
}

Operation *MeshDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type ||
      !arith::ConstantOp::isBuildableWith(value, type))
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, typed);
}

//===----------------------------------------------------------------------===//
// Standalone attribute syntax
//===----------------------------------------------------------------------===//

Attribute MeshDialect::parseAttribute(DialectAsmParser &parser,
                                      Type type) const {
  SMLoc loc = parser.getCurrentLocation();
  StringRef mnemonic;
  if (failed(parser.parseKeyword(&mnemonic)))
    return {};
  if (mnemonic == MeshAxesArrayAttr::getMnemonic()) {
    if (failed(parser.parseLess()))
      return {};
    Attribute attr = MeshAxesArrayAttr::parse(parser, type);
    if (!attr || failed(parser.parseGreater()))
      return {};
    return attr;
  }
  if (mnemonic == ReductionKindAttr::getMnemonic())
    return ReductionKindAttr::parse(parser, type);
  parser.emitError(loc) << "unknown mesh attribute '" << mnemonic
                        << "', expected 'axisarray' or 'partial'";
  return {};
}

void MeshDialect::printAttribute(Attribute attr,
                                 DialectAsmPrinter &printer) const {
  if (auto axes = dyn_cast<MeshAxesArrayAttr>(attr)) {
    printer << MeshAxesArrayAttr::getMnemonic() << '<';
    axes.print(printer);
    printer << '>';
    return;
  }
  if (auto kind = dyn_cast<ReductionKindAttr>(attr)) {
    printer << ReductionKindAttr::getMnemonic();
    kind.print(printer);
  }
}

//===----------------------------------------------------------------------===//
// #mesh.partial<sum>
//===----------------------------------------------------------------------===//

Attribute ReductionKindAttr::parse(AsmParser &parser, Type) {
  // `<sum>` everywhere; a bare `sum` is what `partial = sum[1]` uses.
  bool angled = succeeded(parser.parseOptionalLess());
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (failed(parser.parseKeyword(&keyword)))
    return {};
  std::optional<ReductionKind> kind = symbolizeReductionKind(keyword);
  if (!kind) {
    parser.emitError(loc) << "expected a reduction kind (sum, max, min, "
                             "product, average, bitwise_and, bitwise_or, "
                             "bitwise_xor, generic), got '"
                          << keyword << "'";
    return {};
  }
  if (angled && failed(parser.parseGreater()))
    return {};
  return ReductionKindAttr::get(parser.getContext(), *kind);
}

void ReductionKindAttr::print(AsmPrinter &printer) const {
  printer << '<' << stringifyReductionKind(getValue()) << '>';
}

//===----------------------------------------------------------------------===//
// #mesh.axisarray<[[0], []]>
//===----------------------------------------------------------------------===//

Attribute MeshAxesArrayAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  if (failed(parser.parseLSquare()))
    return {};
  if (succeeded(parser.parseOptionalRSquare())) {
    parser.emitError(loc, "expected at least one (possibly empty) sub-array "
                          "of mesh axes, e.g. [[]]");
    return {};
  }
  SmallVector<DenseI16ArrayAttr> axes;
  auto parseDim = [&]() -> ParseResult {
    SmallVector<MeshAxis> dimAxes;
    auto parseAxis = [&]() -> ParseResult {
      int16_t axis;
      if (failed(parser.parseInteger(axis)))
        return failure();
      dimAxes.push_back(axis);
      return success();
    };
    if (failed(parser.parseLSquare()))
      return failure();
    if (failed(parser.parseOptionalRSquare()) &&
        (failed(parser.parseCommaSeparatedList(AsmParser::Delimiter::None,
                                               parseAxis)) ||
         failed(parser.parseRSquare())))
      return failure();
    axes.push_back(DenseI16ArrayAttr::get(parser.getContext(), dimAxes));
    return success();
  };
  if (failed(parser.parseCommaSeparatedList(AsmParser::Delimiter::None,
                                            parseDim)) ||
      failed(parser.parseRSquare()))
    return {};
  return MeshAxesArrayAttr::get(parser.getContext(), axes);
}

void MeshAxesArrayAttr::print(AsmPrinter &printer) const {
  printer << '[';
  llvm::interleaveComma(getAxes(), printer, [&](DenseI16ArrayAttr dim) {
    printer << '[';
    llvm::interleaveComma(dim.asArrayRef(), printer);
    printer << ']';
  });
  printer << ']';
}

LogicalResult
MeshAxesArrayAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<DenseI16ArrayAttr> axes) {
  if (axes.empty())
    return emitError() << "expected at least one (possibly empty) sub-array "
                          "of mesh axes, e.g. [[]]";
  for (auto [dim, dimAxes] : llvm::enumerate(axes))
    if (!dimAxes)
      return emitError() << "sub-array " << dim << " is null";
  return success();
}
