"""The kernels' optimization level, said once for every kernel library."""

# -O3 vectorizes the kernels' loops. Sanitizer builds (--config=asan, ubsan,
# sanitize and tsan define qnnc_sanitizer) take -O2 instead: instrumented,
# the AVX-512 tiles compile in 36 s at -O2 against 97 s at -O3, and at the
# sanitizers' -O1 the tests run slower than the compile saves.
KERNEL_OPT = select({
    "//kernels:sanitizer_build": ["-O2"],
    "//conditions:default": ["-O3"],
})

# AArch64's dot-product and i8mm register tiles: without GCC's first
# scheduling pass, which hoists the next step's loads above this step's
# multiply-accumulates and so runs out of the 32 vector registers (8 vector
# moves a step in the usmmla 16x4 tile). By llvm-mca-19 (bench/arm_mca.py):
# usmmla 16x4 on Neoverse-V1 from 73% to 89% of its peak, the big cores'
# sdot unchanged. (The depthwise rows and the int16 tiles run as fast or
# faster with it.) The sdot tiles order their loads themselves
# (neon_dense_tile.h NeonSlot).
NEON_TILE_OPT = select({
    "//kernels:aarch64": ["-fno-schedule-insns"],
    "//conditions:default": [],
})
