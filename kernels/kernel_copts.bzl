"""The kernels' optimization level, said once for every kernel library."""

# -O3 vectorizes the kernels' loops. Sanitizer builds (--config=asan, ubsan,
# sanitize and tsan define qnnc_sanitizer) take -O2 instead: instrumented,
# the AVX-512 tiles compile in 36 s at -O2 against 97 s at -O3, and at the
# sanitizers' -O1 the tests run slower than the compile saves.
KERNEL_OPT = select({
    "//kernels:sanitizer_build": ["-O2"],
    "//conditions:default": ["-O3"],
})
