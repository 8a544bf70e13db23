"""The AArch64 cross toolchain: Debian's g++-aarch64-linux-gnu and a sysroot of
Debian's arm64 libraries (scripts/aarch64_sysroot.sh).

`qnnc_aarch64_cc(name)` declares a repository whose `:toolchain` is the C++
toolchain `--config=aarch64` selects (.bazelrc). It is only fetched by that
config, so an x86-64 build needs neither the cross compiler nor the sysroot.
"""

_DEFAULT_SYSROOT = "/opt/qnnc/aarch64-sysroot"
_TRIPLE = "aarch64-linux-gnu"
_GCC_VERSION = "12"

_BUILD = """
load("@bazel_tools//tools/cpp:unix_cc_toolchain_config.bzl", "cc_toolchain_config")

package(default_visibility = ["//visibility:public"])

filegroup(name = "empty")

cc_toolchain_config(
    name = "config",
    cpu = "aarch64",
    compiler = "gcc",
    toolchain_identifier = "qnnc_aarch64",
    host_system_name = "x86_64-linux-gnu",
    target_system_name = "{triple}",
    target_libc = "glibc",
    abi_version = "gcc",
    abi_libc_version = "glibc",
    cxx_builtin_include_directories = {include_dirs},
    tool_paths = {tool_paths},
    compile_flags = [
        "-U_FORTIFY_SOURCE",
        "-fstack-protector",
        "-Wall",
        "-fno-omit-frame-pointer",
        # GCC contracts a * b + c into one fused multiply-add wherever the
        # target has one, which every AArch64 core does (x86-64's baseline
        # has none). Fused, it rounds once where the reference rounds twice:
        # qnnc's float steps are exact only without contraction.
        "-ffp-contract=off",
        # Debian's cross compiler searches /usr/include last, where the
        # libraries' headers are the same for every architecture (multiarch;
        # the sysroot holds the same versions). The sysroot's own copies come
        # after it, for a host that lacks a -dev package.
        "-idirafter",
        "{sysroot}/usr/include",
    ],
    opt_compile_flags = [
        "-g0",
        "-O2",
        "-D_FORTIFY_SOURCE=1",
        "-DNDEBUG",
        "-ffunction-sections",
        "-fdata-sections",
    ],
    dbg_compile_flags = ["-g"],
    cxx_flags = ["-std=c++17"],
    link_flags = [
        "-L{sysroot}/usr/lib/{triple}",
        "-Wl,-rpath-link,{sysroot}/usr/lib/{triple}:{sysroot}/lib/{triple}",
        # Under qemu-user (QEMU_LD_PREFIX=/usr/{triple}) the binaries find
        # the sysroot's libraries here; on an Arm machine the paths do not
        # exist and the loader searches its usual places.
        # (DT_RPATH, which also serves the libraries' own dependencies.)
        "-Wl,-rpath,{sysroot}/usr/lib/{triple}:{sysroot}/lib/{triple}",
        "-Wl,--disable-new-dtags",
        "-Wl,-no-as-needed",
        "-Wl,-z,relro,-z,now",
        "-pass-exit-codes",
    ],
    link_libs = ["-lstdc++", "-lm"],
    opt_link_flags = ["-Wl,--gc-sections"],
    unfiltered_compile_flags = [
        "-fno-canonical-system-headers",
        "-Wno-builtin-macro-redefined",
        "-D__DATE__=\\"redacted\\"",
        "-D__TIMESTAMP__=\\"redacted\\"",
        "-D__TIME__=\\"redacted\\"",
    ],
    coverage_compile_flags = ["--coverage"],
    coverage_link_flags = ["--coverage"],
    supports_start_end_lib = False,
)

cc_toolchain(
    name = "cc_toolchain",
    toolchain_identifier = "qnnc_aarch64",
    toolchain_config = ":config",
    all_files = ":empty",
    ar_files = ":empty",
    as_files = ":empty",
    compiler_files = ":empty",
    dwp_files = ":empty",
    linker_files = ":empty",
    objcopy_files = ":empty",
    strip_files = ":empty",
    supports_param_files = 1,
)

# What the --cpu=aarch64 of the config looks up where Bazel still reads a
# toolchain suite instead of resolving the toolchain for the platform.
cc_toolchain_suite(
    name = "suite",
    toolchains = {
        "aarch64": ":cc_toolchain",
        "aarch64|gcc": ":cc_toolchain",
    },
)

toolchain(
    name = "toolchain",
    exec_compatible_with = [
        "@platforms//cpu:x86_64",
        "@platforms//os:linux",
    ],
    target_compatible_with = [
        "@platforms//cpu:aarch64",
        "@platforms//os:linux",
    ],
    toolchain = ":cc_toolchain",
    toolchain_type = "@bazel_tools//tools/cpp:toolchain_type",
)
"""

def _missing(rctx, what):
    fail(("--config=aarch64 needs %s. Run `scripts/setup.sh --aarch64` " +
          "(or set QNNC_AARCH64_SYSROOT to a sysroot made by " +
          "scripts/aarch64_sysroot.sh).") % what)

def _qnnc_aarch64_cc_impl(rctx):
    sysroot = rctx.os.environ.get("QNNC_AARCH64_SYSROOT", _DEFAULT_SYSROOT)
    gcc = rctx.which(_TRIPLE + "-gcc")
    if gcc == None:
        _missing(rctx, "Debian's cross compiler (%s-gcc, package g++-%s)" % (_TRIPLE, _TRIPLE))
    if not rctx.path(sysroot + "/usr/include/xnnpack.h").exists:
        _missing(rctx, "the arm64 sysroot at %s" % sysroot)
    tools = ["ar", "cpp", "dwp", "gcc", "gcov", "ld", "nm", "objcopy", "objdump", "strip"]
    tool_paths = {t: "/usr/bin/%s-%s" % (_TRIPLE, t) for t in tools}
    tool_paths["llvm-cov"] = "/bin/false"
    include_dirs = [
        "/usr/lib/gcc-cross/%s/%s/include" % (_TRIPLE, _GCC_VERSION),
        "/usr/%s/include" % _TRIPLE,
        "/usr/include",
        sysroot + "/usr/include",
    ]
    rctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % rctx.name)
    build = _BUILD
    for key, value in [
        ("{triple}", _TRIPLE),
        ("{sysroot}", sysroot),
        ("{include_dirs}", repr(include_dirs)),
        ("{tool_paths}", repr(tool_paths)),
    ]:
        build = build.replace(key, value)
    rctx.file("BUILD", build)

qnnc_aarch64_cc = repository_rule(
    implementation = _qnnc_aarch64_cc_impl,
    environ = ["QNNC_AARCH64_SYSROOT", "PATH"],
    local = True,
)
