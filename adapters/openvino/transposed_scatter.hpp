// A ScatterND into a transposed view of a tensor,
//
//   ScatterND(Transpose(x, p), indices [n, 1], updates)
//
// where p moves one axis a to the front and keeps the others in order, is
// an index_copy_ (or, with a reduction, an index_add_ ...) along axis a,
// transposed: Transpose(ScatterElements(x, indices broadcast, updates
// transposed back, axis a), p).  It is what torch.onnx.export(dynamo=True)
// makes of a static KV cache's index_copy_, with Transpose(p^-1) after it.
// OpenVINO alone runs that ScatterND in place between the two Transposes,
// which copy the cache.  An extension operator cannot run in place (the
// CPU plugin gives it an output of its own), so as a ScatterND sgk's node
// copied the cache a third time.  As a ScatterElements, OpenVINO's own
// transformations fold the Transpose(p) it ends with into the
// Transpose(p^-1) after it, and the one on x goes unused: sgk's copy is
// the only one.  The result is the same bit for bit, duplicates included:
// for each element of x, both apply its updates in the order of the
// indices.
#pragma once

#include <string>

#include <openvino/core/node_output.hpp>

namespace sgk_openvino {

// The ScatterND of data, indices and updates as a transposed
// ScatterElements, when data is such a Transpose and the rewrite does not
// cost more; else an Output with no node.  name is the ONNX node's, given
// to the ScatterElements (sgk's errors name it).
ov::Output<ov::Node> untransposed_scatter(const ov::Output<ov::Node>& data,
                                          const ov::Output<ov::Node>& indices,
                                          const ov::Output<ov::Node>& updates,
                                          const std::string& reduction, const std::string& name);

}  // namespace sgk_openvino
