"""System dependencies of qnnc, all from Debian packages (see docs in README).

Call `qnnc_system_deps()` from the WORKSPACE of any repository that depends on
qnnc. Pass `qnnc_repo` = the name under which qnnc itself is declared there
(e.g. "@qnnc"); inside qnnc it is "" (the main repository).
"""

load("//toolchains/aarch64:repository.bzl", "qnnc_aarch64_cc")

def _rules_cc_debian_impl(rctx):
    # Debian's rules_cc 0.0.4 calls use_cpp_toolchain(), which Bazel 4.2.3's
    # toolchain_utils.bzl does not have. Copy the tree and use the plain label.
    src = rctx.path(rctx.attr.path)
    rctx.execute(["cp", "-r", str(src) + "/.", "."])
    for f in ["cc/private/rules_impl/compiler_flag.bzl", "cc/private/rules_impl/cc_flags_supplier.bzl"]:
        text = rctx.read(f)
        text = text.replace(', "use_cpp_toolchain")', ")")
        text = text.replace("use_cpp_toolchain()", '["@bazel_tools//tools/cpp:toolchain_type"]')
        rctx.file(f, text)

_rules_cc_debian = repository_rule(
    implementation = _rules_cc_debian_impl,
    attrs = {"path": attr.string(mandatory = True)},
    local = True,
)

def _coverage_stub_impl(rctx):
    # cc_test needs @remote_coverage_tools; without it Bazel would download it.
    rctx.file("WORKSPACE", 'workspace(name = "remote_coverage_tools")\n')
    rctx.file("stub.sh", "#!/bin/sh\necho 'coverage is not available offline' >&2\nexit 1\n", executable = True)
    rctx.file("BUILD", """
package(default_visibility = ["//visibility:public"])
sh_binary(name = "coverage_report_generator", srcs = ["stub.sh"])
sh_binary(name = "lcov_merger", srcs = ["stub.sh"])
""")

_coverage_stub = repository_rule(implementation = _coverage_stub_impl, local = True)

# name -> BUILD file under third_party/
_SYSTEM_LIBS = {
    "com_google_absl": "absl.BUILD",
    "com_googlesource_code_re2": "re2.BUILD",
    "com_google_googletest": "gtest.BUILD",
    "com_google_benchmark": "benchmark.BUILD",
    "xnnpack": "xnnpack.BUILD",
    "onnx": "onnx.BUILD",
    "nlohmann_json": "nlohmann_json.BUILD",
    "xgboost": "xgboost.BUILD",
    "flatbuffers": "flatbuffers.BUILD",
    "xxhash": "xxhash.BUILD",
}

def qnnc_system_deps(qnnc_repo = ""):
    """Declares rules_cc, rules_java, the coverage stub, every system library
    and the AArch64 cross toolchain (fetched only by --config=aarch64)."""
    qnnc_aarch64_cc(name = "qnnc_aarch64_cc")
    native.local_repository(name = "rules_java", path = "/usr/share/bazel/rules/java")
    _rules_cc_debian(name = "rules_cc", path = "/usr/share/bazel/rules/cc")
    _coverage_stub(name = "remote_coverage_tools")
    _python_dev(name = "python_dev")
    native.new_local_repository(
        name = "onnx_node_testdata",
        path = "/usr/share/libonnx-testdata/data/node",
        build_file = qnnc_repo + "//third_party:onnx_node_testdata.BUILD",
    )
    for name, build in _SYSTEM_LIBS.items():
        native.new_local_repository(
            name = name,
            path = "/usr/include",
            build_file = qnnc_repo + "//third_party:" + build,
        )

def _python_dev_impl(rctx):
    # Debian's interpreter, numpy and pybind11 (python3-dev, python3-numpy,
    # python3-pybind11): the first python3 on PATH may be another one.
    python = "/usr/bin/python3"
    found = rctx.execute([python, "-c", "\n".join([
        "import sysconfig, numpy, pybind11",
        "print(sysconfig.get_paths()['include'])",
        "print(numpy.get_include())",
        "print(pybind11.get_include())",
        "print(sysconfig.get_config_var('EXT_SUFFIX'))",
    ])])
    if found.return_code != 0:
        fail("the Python module (//python) needs Debian's python3-dev, python3-numpy and " +
             "python3-pybind11 (scripts/setup.sh installs them): " + found.stderr)
    python_include, numpy_include, pybind11_include, suffix = found.stdout.strip().split("\n")
    rctx.symlink(python_include, "python")
    rctx.symlink(numpy_include, "numpy")
    rctx.symlink(pybind11_include, "pybind11")
    rctx.file("defs.bzl", "PYTHON = %r\nEXTENSION_SUFFIX = %r\n" % (python, suffix))
    rctx.file("BUILD", """package(default_visibility = ["//visibility:public"])

cc_library(
    name = "pybind11",
    hdrs = glob(["python/**/*.h", "numpy/**/*.h", "pybind11/**/*.h"]),
    includes = ["python", "numpy", "pybind11"],
)
""")

_python_dev = repository_rule(
    implementation = _python_dev_impl,
    local = True,
    environ = ["PATH"],
)
