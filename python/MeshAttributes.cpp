//===- MeshAttributes.cpp - Python classes for mesh attributes ------------===//

#include "MeshsdyModule.h"

namespace meshsdy::python {

void populateMeshAttributes(nb::module_ &m) {
  // The mesh dialect has no attributes yet; its ops are ODS-generated.
  (void)m;
}

} // namespace meshsdy::python
