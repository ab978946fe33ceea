//===- AttrSyntax.cpp - custom<> directives of sdy attributes -------------===//

#include "AttrSyntax.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::sdy;

//===----------------------------------------------------------------------===//
// Integers and mesh axes
//===----------------------------------------------------------------------===//

ParseResult mlir::sdy::parseInt64(AsmParser &parser, int64_t &value) {
  return parser.parseInteger(value);
}

void mlir::sdy::printInt64(AsmPrinter &printer, int64_t value) {
  printer << value;
}

ParseResult mlir::sdy::parseInt64s(AsmParser &parser,
                                   SmallVector<int64_t> &values) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t value = 0;
        if (parser.parseInteger(value))
          return failure();
        values.push_back(value);
        return success();
      });
}

void mlir::sdy::printInt64s(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

ParseResult mlir::sdy::parseMeshAxis(AsmParser &parser, std::string &name,
                                     int64_t &size) {
  SMLoc loc = parser.getCurrentLocation();
  if (failed(parser.parseOptionalString(&name)))
    return parser.emitError(loc, "expected an axis name (a quoted string)");
  return failure(parser.parseEqual() || parser.parseInteger(size));
}

void mlir::sdy::printMeshAxis(AsmPrinter &printer, StringRef name,
                              int64_t size) {
  printer.printString(name);
  printer << "=" << size;
}

//===----------------------------------------------------------------------===//
// Axis refs
//===----------------------------------------------------------------------===//

ParseResult mlir::sdy::parseAxisRef(AsmParser &parser, AxisRefAttr &axis) {
  std::string name;
  SMLoc loc = parser.getCurrentLocation();
  if (failed(parser.parseOptionalString(&name)))
    return parser.emitError(loc, "expected an axis name (a quoted string)");
  SubAxisInfoAttr subAxis;
  if (succeeded(parser.parseOptionalColon())) {
    int64_t preSize = 0, size = 0;
    if (parser.parseLParen() || parser.parseInteger(preSize) ||
        parser.parseRParen() || parser.parseInteger(size))
      return failure();
    subAxis = SubAxisInfoAttr::get(parser.getContext(), preSize, size);
  }
  axis = AxisRefAttr::get(parser.getContext(), name, subAxis);
  return success();
}

void mlir::sdy::printAxisRef(AsmPrinter &printer, AxisRefAttr axis) {
  printer.printString(axis.getName());
  if (SubAxisInfoAttr subAxis = axis.getSubAxisInfo())
    printer << ":(" << subAxis.getPreSize() << ")" << subAxis.getSize();
}

ParseResult mlir::sdy::parseAxisRefParams(AsmParser &parser,
                                          std::string &name,
                                          SubAxisInfoAttr &subAxisInfo) {
  AxisRefAttr axis;
  if (parseAxisRef(parser, axis))
    return failure();
  name = axis.getName().str();
  subAxisInfo = axis.getSubAxisInfo();
  return success();
}

void mlir::sdy::printAxisRefParams(AsmPrinter &printer, StringRef name,
                                   SubAxisInfoAttr subAxisInfo) {
  printer.printString(name);
  if (subAxisInfo)
    printer << ":(" << subAxisInfo.getPreSize() << ")" << subAxisInfo.getSize();
}

/// Parses `{` [elem (`,` elem)*] `}` where `parseElem` parses one element.
static ParseResult
parseBraceList(AsmParser &parser,
               function_ref<ParseResult()> parseElem) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces,
                                        parseElem);
}

ParseResult
mlir::sdy::parseAxisRefs(AsmParser &parser,
                         SmallVector<AxisRefAttr> &axes) {
  SmallVector<AxisRefAttr> result;
  if (parseBraceList(parser, [&]() -> ParseResult {
        AxisRefAttr axis;
        if (parseAxisRef(parser, axis))
          return failure();
        result.push_back(axis);
        return success();
      }))
    return failure();
  axes = std::move(result);
  return success();
}

void mlir::sdy::printAxisRefs(AsmPrinter &printer, ArrayRef<AxisRefAttr> axes) {
  printer << "{";
  llvm::interleaveComma(axes, printer,
                        [&](AxisRefAttr axis) { printAxisRef(printer, axis); });
  printer << "}";
}

ParseResult
mlir::sdy::parseAxisRefLists(AsmParser &parser,
                             SmallVector<AxisRefListAttr> &lists) {
  SmallVector<AxisRefListAttr> result;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            SmallVector<AxisRefAttr> axes;
            if (parseAxisRefs(parser, axes))
              return failure();
            result.push_back(AxisRefListAttr::get(parser.getContext(), axes));
            return success();
          }))
    return failure();
  lists = std::move(result);
  return success();
}

void mlir::sdy::printAxisRefLists(AsmPrinter &printer,
                                  ArrayRef<AxisRefListAttr> lists) {
  printer << "[";
  llvm::interleaveComma(lists, printer, [&](AxisRefListAttr list) {
    printAxisRefs(printer, list.getValue());
  });
  printer << "]";
}

ParseResult
mlir::sdy::parseAxisNames(AsmParser &parser,
                          SmallVector<StringAttr> &names) {
  SmallVector<StringAttr> result;
  if (parseBraceList(parser, [&]() -> ParseResult {
        std::string name;
        SMLoc loc = parser.getCurrentLocation();
        if (failed(parser.parseOptionalString(&name)))
          return parser.emitError(loc,
                                  "expected an axis name (a quoted string)");
        result.push_back(StringAttr::get(parser.getContext(), name));
        return success();
      }))
    return failure();
  names = std::move(result);
  return success();
}

void mlir::sdy::printAxisNames(AsmPrinter &printer,
                               ArrayRef<StringAttr> names) {
  printer << "{";
  llvm::interleaveComma(names, printer, [&](StringAttr name) {
    printer.printString(name.getValue());
  });
  printer << "}";
}

//===----------------------------------------------------------------------===//
// Tensor shardings
//===----------------------------------------------------------------------===//

ParseResult mlir::sdy::parseMeshOrRef(AsmParser &parser,
                                      Attribute &meshOrRef) {
  StringAttr symName;
  if (succeeded(parser.parseOptionalSymbolName(symName))) {
    meshOrRef = FlatSymbolRefAttr::get(symName);
    return success();
  }
  SMLoc loc = parser.getCurrentLocation();
  if (failed(parser.parseOptionalKeyword("mesh")))
    return parser.emitError(loc, "expected a mesh symbol name (@mesh) or an "
                                 "inlined mesh (mesh<[...]>)");
  Attribute mesh = MeshAttr::parse(parser, Type());
  if (!mesh)
    return failure();
  meshOrRef = mesh;
  return success();
}

void mlir::sdy::printMeshOrRef(AsmPrinter &printer, Attribute meshOrRef) {
  if (auto mesh = dyn_cast<MeshAttr>(meshOrRef)) {
    printer << "mesh";
    mesh.print(printer);
    return;
  }
  printer.printAttribute(meshOrRef);
}

/// Parses the part of a dimension sharding inside the braces: `"a", ?}`.
/// The `{` is already consumed.
static DimensionShardingAttr parseDimShardingBody(AsmParser &parser) {
  SmallVector<AxisRefAttr> axes;
  bool isClosed = true;
  if (succeeded(parser.parseOptionalQuestion())) {
    isClosed = false;
  } else if (succeeded(parser.parseOptionalRBrace())) {
    return DimensionShardingAttr::get(parser.getContext(), axes, true,
                                      std::nullopt);
  } else {
    while (true) {
      AxisRefAttr axis;
      if (parseAxisRef(parser, axis))
        return {};
      axes.push_back(axis);
      if (failed(parser.parseOptionalComma()))
        break;
      if (succeeded(parser.parseOptionalQuestion())) {
        isClosed = false;
        break;
      }
    }
  }
  if (parser.parseRBrace())
    return {};
  return DimensionShardingAttr::get(parser.getContext(), axes, isClosed,
                                    std::nullopt);
}

/// Parses an optional priority suffix `p<N>` (also `p -1`, so that the
/// verifier, not the lexer, reports negative priorities).
static ParseResult parsePriority(AsmParser &parser,
                                 std::optional<int64_t> &priority) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (failed(parser.parseOptionalKeyword(&keyword)))
    return success();
  if (!keyword.starts_with("p"))
    return parser.emitError(loc, "expected a priority 'p<N>', got '")
           << keyword << "'";
  int64_t value = 0;
  if (keyword == "p") {
    if (parser.parseInteger(value))
      return failure();
  } else if (keyword.drop_front().getAsInteger(10, value)) {
    return parser.emitError(loc, "expected a priority 'p<N>', got '")
           << keyword << "'";
  }
  priority = value;
  return success();
}

/// Parses `{"a", ?}p1`.
static DimensionShardingAttr parseDimSharding(AsmParser &parser) {
  if (parser.parseLBrace())
    return {};
  DimensionShardingAttr dim = parseDimShardingBody(parser);
  if (!dim)
    return {};
  std::optional<int64_t> priority;
  if (parsePriority(parser, priority))
    return {};
  if (!priority)
    return dim;
  return DimensionShardingAttr::get(parser.getContext(), dim.getAxes(),
                                    dim.getIsClosed(), priority);
}

static void printDimSharding(AsmPrinter &printer, DimensionShardingAttr dim) {
  printer << "{";
  llvm::interleaveComma(dim.getAxes(), printer,
                        [&](AxisRefAttr axis) { printAxisRef(printer, axis); });
  if (dim.isOpen())
    printer << (dim.getAxes().empty() ? "?" : ", ?");
  printer << "}";
  if (std::optional<int64_t> priority = dim.getPriority())
    printer << "p" << *priority;
}

Attribute DimensionShardingAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  DimensionShardingAttr dim = parseDimSharding(parser);
  if (!dim || parser.parseGreater())
    return {};
  return dim;
}

void DimensionShardingAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printDimSharding(printer, *this);
  printer << ">";
}

ParseResult mlir::sdy::parseDimShardings(
    AsmParser &parser, SmallVector<DimensionShardingAttr> &dims) {
  SmallVector<DimensionShardingAttr> result;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            DimensionShardingAttr dim = parseDimSharding(parser);
            if (!dim)
              return failure();
            result.push_back(dim);
            return success();
          }))
    return failure();
  dims = std::move(result);
  return success();
}

void mlir::sdy::printDimShardings(AsmPrinter &printer,
                                  ArrayRef<DimensionShardingAttr> dims) {
  printer << "[";
  llvm::interleaveComma(dims, printer, [&](DimensionShardingAttr dim) {
    printDimSharding(printer, dim);
  });
  printer << "]";
}

ParseResult mlir::sdy::parseReplicatedAndUnreducedAxes(
    AsmParser &parser, SmallVector<AxisRefAttr> &replicated,
    SmallVector<AxisRefAttr> &unreduced) {
  replicated = SmallVector<AxisRefAttr>();
  unreduced = SmallVector<AxisRefAttr>();
  if (failed(parser.parseOptionalComma()))
    return success();
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (failed(parser.parseOptionalKeyword(&keyword)) ||
      (keyword != "replicated" && keyword != "unreduced"))
    return parser.emitError(loc, "expected 'replicated' or 'unreduced'");
  if (keyword == "replicated") {
    if (parser.parseEqual() || parseAxisRefs(parser, replicated))
      return failure();
    if (failed(parser.parseOptionalComma()))
      return success();
    loc = parser.getCurrentLocation();
    if (failed(parser.parseOptionalKeyword("unreduced")))
      return parser.emitError(loc, "expected 'unreduced'");
  }
  return failure(parser.parseEqual() || parseAxisRefs(parser, unreduced));
}

void mlir::sdy::printReplicatedAndUnreducedAxes(
    AsmPrinter &printer, ArrayRef<AxisRefAttr> replicated,
    ArrayRef<AxisRefAttr> unreduced) {
  if (!replicated.empty()) {
    printer << ", replicated=";
    printAxisRefs(printer, replicated);
  }
  if (!unreduced.empty()) {
    printer << ", unreduced=";
    printAxisRefs(printer, unreduced);
  }
}

//===----------------------------------------------------------------------===//
// Sharding rules
//===----------------------------------------------------------------------===//

std::string mlir::sdy::factorName(int64_t index) {
  constexpr int64_t kNumLetters = 'z' - 'i' + 1;
  if (index < kNumLetters)
    return std::string(1, static_cast<char>('i' + index));
  return "z_" + std::to_string(index - kNumLetters + 1);
}

/// Splits `keyword` (e.g. `ij`, `z_1z_2`) into factor indices.
static ParseResult decodeFactors(AsmParser &parser, SMLoc loc,
                                 StringRef keyword,
                                 SmallVectorImpl<int64_t> &factors) {
  constexpr int64_t kNumLetters = 'z' - 'i' + 1;
  auto fail = [&]() {
    return parser.emitError(loc, "expected factor names ('i' to 'z', then "
                                 "'z_1', 'z_2', ...), got '")
           << keyword << "'";
  };
  size_t pos = 0;
  while (pos < keyword.size()) {
    char c = keyword[pos];
    if (c < 'i' || c > 'z')
      return fail();
    if (c == 'z' && pos + 1 < keyword.size() && keyword[pos + 1] == '_') {
      size_t end = pos + 2;
      while (end < keyword.size() && llvm::isDigit(keyword[end]))
        ++end;
      int64_t n = 0;
      StringRef digits = keyword.slice(pos + 2, end);
      if (digits.empty() || digits.getAsInteger(10, n) || n < 1 ||
          n > (int64_t{1} << 40))
        return fail();
      factors.push_back(kNumLetters - 1 + n);
      pos = end;
      continue;
    }
    factors.push_back(c - 'i');
    ++pos;
  }
  return success();
}

/// Parses `*` (no factor) or a compound factor name like `ij`.
static ParseResult parseDimMappingBody(AsmParser &parser,
                                       SmallVectorImpl<int64_t> &factors) {
  if (succeeded(parser.parseOptionalStar()))
    return success();
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (failed(parser.parseOptionalKeyword(&keyword)))
    return parser.emitError(loc, "expected a factor name or '*'");
  return decodeFactors(parser, loc, keyword, factors);
}

static void printDimMappingBody(AsmPrinter &printer, DimMappingAttr dim) {
  if (dim.getFactorIndices().empty()) {
    printer << "*";
    return;
  }
  for (int64_t factor : dim.getFactorIndices())
    printer << factorName(factor);
}

Attribute DimMappingAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> factors;
  if (parser.parseLess() || parseDimMappingBody(parser, factors) ||
      parser.parseGreater())
    return {};
  return DimMappingAttr::get(parser.getContext(), factors);
}

void DimMappingAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printDimMappingBody(printer, *this);
  printer << ">";
}

ParseResult
mlir::sdy::parseDimMappings(AsmParser &parser,
                            SmallVector<DimMappingAttr> &dims) {
  SmallVector<DimMappingAttr> result;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            SmallVector<int64_t> factors;
            if (parseDimMappingBody(parser, factors))
              return failure();
            result.push_back(DimMappingAttr::get(parser.getContext(), factors));
            return success();
          }))
    return failure();
  dims = std::move(result);
  return success();
}

void mlir::sdy::printDimMappings(AsmPrinter &printer,
                                 ArrayRef<DimMappingAttr> dims) {
  printer << "[";
  llvm::interleaveComma(dims, printer, [&](DimMappingAttr dim) {
    printDimMappingBody(printer, dim);
  });
  printer << "]";
}

/// Parses `([i, j],[j, k])`.
static ParseResult
parseTensorMappings(AsmParser &parser,
                    SmallVector<TensorMappingAttr> &mappings) {
  SmallVector<TensorMappingAttr> result;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Paren, [&]() -> ParseResult {
            SmallVector<DimMappingAttr> dims;
            if (parseDimMappings(parser, dims))
              return failure();
            result.push_back(
                TensorMappingAttr::get(parser.getContext(), dims));
            return success();
          }))
    return failure();
  mappings = std::move(result);
  return success();
}

static void printTensorMappings(AsmPrinter &printer,
                                ArrayRef<TensorMappingAttr> mappings) {
  printer << "(";
  llvm::interleave(
      mappings, printer,
      [&](TensorMappingAttr mapping) {
        printDimMappings(printer, mapping.getDimMappings());
      },
      ",");
  printer << ")";
}

/// Parses one factor name that must denote a single factor.
static ParseResult parseSingleFactor(AsmParser &parser, int64_t &factor) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (failed(parser.parseOptionalKeyword(&keyword)))
    return parser.emitError(loc, "expected a factor name");
  SmallVector<int64_t> factors;
  if (decodeFactors(parser, loc, keyword, factors))
    return failure();
  if (factors.size() != 1)
    return parser.emitError(loc, "expected a single factor name, got '")
           << keyword << "'";
  factor = factors.front();
  return success();
}

ParseResult mlir::sdy::parseShardingRule(
    AsmParser &parser, SmallVector<int64_t> &factorSizes,
    SmallVector<TensorMappingAttr> &operandMappings,
    SmallVector<TensorMappingAttr> &resultMappings,
    SmallVector<int64_t> &reductionFactors,
    SmallVector<int64_t> &needReplicationFactors,
    SmallVector<int64_t> &permutationFactors,
    SmallVector<int64_t> &blockedPropagationFactors,
    bool &isCustomRule) {
  if (parseTensorMappings(parser, operandMappings) || parser.parseArrow() ||
      parseTensorMappings(parser, resultMappings))
    return failure();

  // A rule without factors (e.g. for scalars) may have no size list at all,
  // as Shardy prints it: `([], [])->([])`; `{}` is accepted too.
  SmallVector<int64_t> sizes;
  auto parseFactorSize = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    int64_t factor = 0, size = 0;
    if (parseSingleFactor(parser, factor))
      return failure();
    if (factor != static_cast<int64_t>(sizes.size()))
      return parser.emitError(loc, "expected factor '")
             << factorName(sizes.size()) << "' next in the factor sizes, got '"
             << factorName(factor) << "'";
    if (parser.parseEqual() || parser.parseInteger(size))
      return failure();
    sizes.push_back(size);
    return success();
  };
  if (succeeded(parser.parseOptionalLBrace()) &&
      failed(parser.parseOptionalRBrace())) {
    if (parser.parseCommaSeparatedList(parseFactorSize) ||
        parser.parseRBrace())
      return failure();
  }
  factorSizes = std::move(sizes);

  auto parseGroup = [&](StringRef keyword,
                        SmallVector<int64_t> &group) -> ParseResult {
    SmallVector<int64_t> factors;
    if (succeeded(parser.parseOptionalKeyword(keyword))) {
      if (parser.parseEqual() ||
          parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Braces, [&]() -> ParseResult {
                int64_t factor = 0;
                if (parseSingleFactor(parser, factor))
                  return failure();
                factors.push_back(factor);
                return success();
              }))
        return failure();
    }
    group = std::move(factors);
    return success();
  };
  if (parseGroup("reduction", reductionFactors) ||
      parseGroup("need_replication", needReplicationFactors) ||
      parseGroup("permutation", permutationFactors) ||
      parseGroup("blocked_propagation", blockedPropagationFactors))
    return failure();

  isCustomRule = false;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("custom"))
      return failure();
    isCustomRule = true;
  }
  return success();
}

void mlir::sdy::printShardingRule(
    AsmPrinter &printer, ArrayRef<int64_t> factorSizes,
    ArrayRef<TensorMappingAttr> operandMappings,
    ArrayRef<TensorMappingAttr> resultMappings,
    ArrayRef<int64_t> reductionFactors,
    ArrayRef<int64_t> needReplicationFactors,
    ArrayRef<int64_t> permutationFactors,
    ArrayRef<int64_t> blockedPropagationFactors, bool isCustomRule) {
  printTensorMappings(printer, operandMappings);
  printer << "->";
  printTensorMappings(printer, resultMappings);
  if (!factorSizes.empty()) {
    printer << " {";
    llvm::interleaveComma(llvm::enumerate(factorSizes), printer, [&](auto it) {
      printer << factorName(it.index()) << "=" << it.value();
    });
    printer << "}";
  }
  auto printGroup = [&](StringRef keyword, ArrayRef<int64_t> factors) {
    if (factors.empty())
      return;
    printer << " " << keyword << "={";
    llvm::interleaveComma(factors, printer,
                          [&](int64_t factor) { printer << factorName(factor); });
    printer << "}";
  };
  printGroup("reduction", reductionFactors);
  printGroup("need_replication", needReplicationFactors);
  printGroup("permutation", permutationFactors);
  printGroup("blocked_propagation", blockedPropagationFactors);
  if (isCustomRule)
    printer << ", custom";
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

ParseResult mlir::sdy::parseAllToAllParam(
    AsmParser &parser, SmallVector<AxisRefAttr> &axes,
    int64_t &srcDim, int64_t &tgtDim) {
  int64_t src = 0, tgt = 0;
  if (failed(parseAxisRefs(parser, axes)) || parser.parseColon() ||
      parser.parseInteger(src) || parser.parseArrow() ||
      parser.parseInteger(tgt))
    return failure();
  srcDim = src;
  tgtDim = tgt;
  return success();
}

void mlir::sdy::printAllToAllParam(AsmPrinter &printer,
                                   ArrayRef<AxisRefAttr> axes, int64_t srcDim,
                                   int64_t tgtDim) {
  printAxisRefs(printer, axes);
  printer << ": " << srcDim << "->" << tgtDim;
}

//===----------------------------------------------------------------------===//
// Propagation edges
//===----------------------------------------------------------------------===//

ParseResult mlir::sdy::parseEdgeValueRefParams(AsmParser &parser,
                                               EdgeNodeType &type,
                                               int64_t &index) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  std::optional<EdgeNodeType> parsed;
  if (succeeded(parser.parseOptionalKeyword(&keyword)))
    parsed = symbolizeEdgeNodeType(keyword);
  if (!parsed)
    return parser.emitError(loc, "expected 'operand-<N>' or 'result-<N>'");
  type = *parsed;
  return failure(parser.parseMinus() || parser.parseInteger(index));
}

void mlir::sdy::printEdgeValueRefParams(AsmPrinter &printer,
                                        EdgeNodeType type, int64_t index) {
  printer << stringifyEdgeNodeType(type) << "-" << index;
}

ParseResult mlir::sdy::parseEdgeValueRef(AsmParser &parser,
                                         EdgeValueRefAttr &ref) {
  EdgeNodeType type = EdgeNodeType::OPERAND;
  int64_t index = 0;
  if (parseEdgeValueRefParams(parser, type, index))
    return failure();
  ref = EdgeValueRefAttr::get(parser.getContext(), type, index);
  return success();
}

void mlir::sdy::printEdgeValueRef(AsmPrinter &printer, EdgeValueRefAttr ref) {
  printEdgeValueRefParams(printer, ref.getType(), ref.getIndex());
}

ParseResult
mlir::sdy::parseEdgeValueRefs(AsmParser &parser,
                              SmallVector<EdgeValueRefAttr> &refs) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        EdgeValueRefAttr ref;
        if (parseEdgeValueRef(parser, ref))
          return failure();
        refs.push_back(ref);
        return success();
      });
}

void mlir::sdy::printEdgeValueRefs(AsmPrinter &printer,
                                   ArrayRef<EdgeValueRefAttr> refs) {
  printer << "[";
  llvm::interleaveComma(refs, printer, [&](EdgeValueRefAttr ref) {
    printEdgeValueRef(printer, ref);
  });
  printer << "]";
}
