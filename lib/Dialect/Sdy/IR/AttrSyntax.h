//===- AttrSyntax.h - custom<> directives of sdy attributes -----*- C++ -*-===//
//
// Private to lib/Dialect/Sdy/IR: the parse/print halves of the `custom<>`
// directives used by the attribute assembly formats in SdyAttrs.td. Parsers
// report one precise error and never build an attribute from bad input.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_DIALECT_SDY_IR_ATTRSYNTAX_H
#define MESHSDY_LIB_DIALECT_SDY_IR_ATTRSYNTAX_H

#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"
#include "mlir/IR/OpImplementation.h"

namespace mlir::sdy {

/// An integer, with one error if it is missing.
ParseResult parseInt64(AsmParser &parser, int64_t &value);
void printInt64(AsmPrinter &printer, int64_t value);

/// `[0, 2, 1]`.
ParseResult parseInt64s(AsmParser &parser, SmallVector<int64_t> &values);
void printInt64s(AsmPrinter &printer, ArrayRef<int64_t> values);

/// `"a"=2` (a mesh axis).
ParseResult parseMeshAxis(AsmParser &parser, std::string &name, int64_t &size);
void printMeshAxis(AsmPrinter &printer, StringRef name, int64_t size);

/// `operand-0` as the parameters of an EdgeValueRefAttr.
ParseResult parseEdgeValueRefParams(AsmParser &parser, EdgeNodeType &type,
                                    int64_t &index);
void printEdgeValueRefParams(AsmPrinter &printer, EdgeNodeType type,
                             int64_t index);

/// `"a"` or `"a":(m)k`.
ParseResult parseAxisRef(AsmParser &parser, AxisRefAttr &axis);
void printAxisRef(AsmPrinter &printer, AxisRefAttr axis);

/// `"a"` or `"a":(m)k` as the parameters of an AxisRefAttr.
ParseResult parseAxisRefParams(AsmParser &parser, std::string &name,
                               SubAxisInfoAttr &subAxisInfo);
void printAxisRefParams(AsmPrinter &printer, StringRef name,
                        SubAxisInfoAttr subAxisInfo);

/// `{"a", "b":(1)2}` (possibly empty).
ParseResult parseAxisRefs(AsmParser &parser,
                          SmallVector<AxisRefAttr> &axes);
void printAxisRefs(AsmPrinter &printer, ArrayRef<AxisRefAttr> axes);

/// `[{"a"}, {}]`.
ParseResult parseAxisRefLists(AsmParser &parser,
                              SmallVector<AxisRefListAttr> &lists);
void printAxisRefLists(AsmPrinter &printer, ArrayRef<AxisRefListAttr> lists);

/// `{"a", "b"}`: plain axis names (manual axes).
ParseResult parseAxisNames(AsmParser &parser,
                           SmallVector<StringAttr> &names);
void printAxisNames(AsmPrinter &printer, ArrayRef<StringAttr> names);

/// `@mesh` or an inlined `mesh<[...]>`.
ParseResult parseMeshOrRef(AsmParser &parser, Attribute &meshOrRef);
void printMeshOrRef(AsmPrinter &printer, Attribute meshOrRef);

/// `[{"a", ?}p1, {}]`.
ParseResult
parseDimShardings(AsmParser &parser,
                  SmallVector<DimensionShardingAttr> &dims);
void printDimShardings(AsmPrinter &printer,
                       ArrayRef<DimensionShardingAttr> dims);

/// `, replicated={"c"}, unreduced={"d"}` (both optional).
ParseResult parseReplicatedAndUnreducedAxes(
    AsmParser &parser, SmallVector<AxisRefAttr> &replicated,
    SmallVector<AxisRefAttr> &unreduced);
void printReplicatedAndUnreducedAxes(AsmPrinter &printer,
                                     ArrayRef<AxisRefAttr> replicated,
                                     ArrayRef<AxisRefAttr> unreduced);

/// `[ij, *, k]`.
ParseResult parseDimMappings(AsmParser &parser,
                             SmallVector<DimMappingAttr> &dims);
void printDimMappings(AsmPrinter &printer, ArrayRef<DimMappingAttr> dims);

/// `([i, j],[j, k])->([i, k]) {i=8, j=4, k=16} reduction={j}
/// need_replication={..} permutation={..} blocked_propagation={..}, custom`.
ParseResult parseShardingRule(
    AsmParser &parser, SmallVector<int64_t> &factorSizes,
    SmallVector<TensorMappingAttr> &operandMappings,
    SmallVector<TensorMappingAttr> &resultMappings,
    SmallVector<int64_t> &reductionFactors,
    SmallVector<int64_t> &needReplicationFactors,
    SmallVector<int64_t> &permutationFactors,
    SmallVector<int64_t> &blockedPropagationFactors,
    bool &isCustomRule);
void printShardingRule(AsmPrinter &printer, ArrayRef<int64_t> factorSizes,
                       ArrayRef<TensorMappingAttr> operandMappings,
                       ArrayRef<TensorMappingAttr> resultMappings,
                       ArrayRef<int64_t> reductionFactors,
                       ArrayRef<int64_t> needReplicationFactors,
                       ArrayRef<int64_t> permutationFactors,
                       ArrayRef<int64_t> blockedPropagationFactors,
                       bool isCustomRule);

/// `{"b"}: 0->2`.
ParseResult parseAllToAllParam(AsmParser &parser,
                               SmallVector<AxisRefAttr> &axes,
                               int64_t &srcDim,
                               int64_t &tgtDim);
void printAllToAllParam(AsmPrinter &printer, ArrayRef<AxisRefAttr> axes,
                        int64_t srcDim, int64_t tgtDim);

/// `operand-0` (a reference to an edge value).
ParseResult parseEdgeValueRef(AsmParser &parser, EdgeValueRefAttr &ref);
void printEdgeValueRef(AsmPrinter &printer, EdgeValueRefAttr ref);

/// `[result-0, result-1]`.
ParseResult parseEdgeValueRefs(AsmParser &parser,
                               SmallVector<EdgeValueRefAttr> &refs);
void printEdgeValueRefs(AsmPrinter &printer, ArrayRef<EdgeValueRefAttr> refs);

/// `[elem, elem]` where each element is an attribute of type T in its
/// stripped form (`T::parse`/`T::print`). One error per bad element, without
/// the generic "failed to parse ... parameter" cascade.
template <typename T>
ParseResult parseStrippedList(AsmParser &parser, SmallVector<T> &elems) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        auto elem = ::llvm::dyn_cast_or_null<T>(T::parse(parser, Type()));
        if (!elem)
          return failure();
        elems.push_back(elem);
        return success();
      });
}

template <typename T>
void printStrippedList(AsmPrinter &printer, ArrayRef<T> elems) {
  printer << "[";
  llvm::interleaveComma(elems, printer, [&](T elem) { elem.print(printer); });
  printer << "]";
}

/// The name of factor `index`: `i`..`z` for 0..17, then `z_1`, `z_2`, ...
std::string factorName(int64_t index);

} // namespace mlir::sdy

#endif // MESHSDY_LIB_DIALECT_SDY_IR_ATTRSYNTAX_H
