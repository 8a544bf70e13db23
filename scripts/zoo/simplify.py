"""Cleans an exported float model for the quantizer: Identity removed,
Constant nodes and shape arithmetic folded from the static input shape."""
import numpy as np
import onnx
from onnx import helper, numpy_helper, shape_inference

from zoo.evaluator import eval_node


def simplify(model):
    """Removes Identity, turns Constant nodes into initializers and folds every
    node whose inputs are constants (Shape of statically shaped tensors
    included), then drops unused initializers."""
    inferred = shape_inference.infer_shapes(model)
    static = {}
    for vi in list(inferred.graph.value_info) + list(inferred.graph.input) + list(inferred.graph.output):
        dims = vi.type.tensor_type.shape.dim
        if dims and all(d.HasField("dim_value") for d in dims):
            static[vi.name] = [d.dim_value for d in dims]
    g = model.graph
    consts = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    outputs = {o.name for o in g.output}
    alias, nodes = {}, []
    for node in g.node:
        node.input[:] = [alias.get(i, i) for i in node.input]
        if node.op_type == "Identity" and node.output[0] not in outputs:
            alias[node.output[0]] = node.input[0]
        elif node.op_type == "Shape" and node.input[0] in static:
            consts[node.output[0]] = np.array(static[node.input[0]], np.int64)
        elif all(i == "" or i in consts for i in node.input):
            for name, value in zip(node.output, eval_node(node, [consts[i] if i else None for i in node.input])):
                consts[name] = np.asarray(value)
        else:
            nodes.append(node)
    used = {i for n in nodes for i in n.input}
    inits = [numpy_helper.from_array(consts[name], name) for name in sorted(used & consts.keys())]
    graph = helper.make_graph(nodes, g.name, g.input, g.output, inits)
    out = helper.make_model(graph, opset_imports=model.opset_import, producer_name="qnnc scripts/make_zoo_models.py")
    onnx.checker.check_model(out)
    return out
