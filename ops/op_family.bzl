"""An op family's facets: one library each, on the layer that uses it.

op_family(name = "pool", ...) in ops/pool/BUILD declares
  :def        pool_def.cc        ops and type relations       (on //ir:core)
  :reference  pool_reference.cc  reference kernels            (on //eval:kernel_table)
  :kernels    pool_kernels.cc    fast kernels' factories      (on //runtime:kernel_factory)
  :layout     pool_layout.cc     AlterOpLayout rules          (on //passes:layout_rules)
each with the deps every family's facet needs plus the family's own.
"""

# The families, each a folder ops/<family>/ (the layers' BUILD files depend on
# each family's facet from this list).
OP_FAMILIES = ["conv", "dense", "elementwise", "layout", "pool", "qnn_elementwise", "quantize"]

# The families with layout rules (op_family's layout = True).
LAYOUT_FAMILIES = ["elementwise", "layout", "pool", "qnn_elementwise", "quantize"]

def op_family_facets(facet, families = OP_FAMILIES):
    """The labels of one facet (def, reference, kernels, layout) of every family."""
    return ["//ops/%s:%s" % (family, facet) for family in families]

_ABSL = "@com_google_absl//:absl"
_POOL = "@xnnpack//:pthreadpool"

_DEF_DEPS = ["//ir:core", "//tensor", "//util:status_macros", _ABSL]
_REFERENCE_DEPS = ["//eval:kernel_table", "//ir", "//kernels/reference", "//tensor", "//util:status_macros", _ABSL, _POOL]
_KERNELS_DEPS = ["//ir", "//runtime:kernel_factory", "//tensor", "//util:status_macros", _ABSL, _POOL]
_LAYOUT_DEPS = ["//ir", "//passes:layout_rules", "//util:status_macros", _ABSL]

def op_family(name, reference_deps = [], kernels_deps = [], kernels_srcs = None, layout = True):
    """The family `name`'s :def, :reference, :kernels and (if `layout`) :layout libraries.

    Args:
      name: the family, the prefix of its files.
      reference_deps: what the reference kernels need beyond the common deps.
      kernels_deps: what the kernel factories need beyond the common deps.
      kernels_srcs: the factories' files, if not just <name>_kernels.cc.
      layout: whether the family has layout rules (<name>_layout.cc).
    """
    native.cc_library(name = "def", srcs = [name + "_def.cc"], deps = _DEF_DEPS)
    native.cc_library(
        name = "reference",
        srcs = [name + "_reference.cc"],
        deps = _REFERENCE_DEPS + reference_deps,
    )
    native.cc_library(
        name = "kernels",
        srcs = kernels_srcs or [name + "_kernels.cc"],
        deps = _KERNELS_DEPS + kernels_deps,
    )
    if layout:
        native.cc_library(name = "layout", srcs = [name + "_layout.cc"], deps = _LAYOUT_DEPS)
