// The spatial-pack family's variants, said once: the x86 and generic targets
// register their implementations by these names, the runtime binds its
// kernels by them, and the tuner's candidates are those implementations. An
// implementation's name is "<arch>.spatial_pack." followed by its variant's
// name (the kernel's description starts with the variant's name). Renamed
// implementations keep their old names as aliases, so records and plans
// written before still load.
#ifndef QNNC_KERNELS_SPATIAL_PACK_VARIANTS_H_
#define QNNC_KERNELS_SPATIAL_PACK_VARIANTS_H_

#include <optional>

#include "absl/strings/string_view.h"
#include "kernels/cpu/isa.h"

namespace qnnc::kernels::spatial_pack {

// The instruction set of a kernel variant: a level of kernels/cpu/isa.h
// (one spelling everywhere). Spatial-pack kernels exist for kScalar, kAvx2,
// kAvxvnni (dense u8s8 only: vpdpbusd on ymm; depthwise layers keep the
// AVX2 kernel) and kAvx512vnni; an avx512bw host runs the AVX2 ones. On
// AArch64 for kDotprod (sdot) and kI8mm (sudot), both with NEON depthwise
// rows; a kNeon host runs the int16 kernels.
using Isa = cpu::IsaLevel;
// How the AVX2 u8s8 dense kernel multiplies (the other ISAs have one way):
//   kMaddubs  vpmaddubsw on u8 x s8 pairs, then vpmaddwd by ones: one pass
//             where the pairs cannot saturate vpmaddubsw's int16 sum in the
//             channel order PlanPairing chooses (weight_pairs.h; any order
//             but the natural one is read through a copy of the input
//             reordered per pixel), and a second pass over the half
//             steps (8 output channels) holding a pair that could, one
//             vpmaddwd each (CorrectionRun): exact for any s8 weights,
//             fast where few half steps need correcting
//   kMadd16   vpmaddwd alone: the u8 inputs widened in registers, the weights
//             packed as int16; one pass, exact for any weights ("u8i16").
//             Dense kernels only (the AVX2 depthwise kernel already is int16).
//             Also on kAvx512vnni (vpdpwssd), for weights w - zw beyond s8
//             (8-bit weights with a zero point).
enum class Arithmetic { kMaddubs, kMadd16 };

// Every u8 x s8 kernel variant: the one list tests and benchmarks walk (as
// XNNPACK's .inc tables do). The tiles of each are ConfigSpaceU8S8(isa,
// arith); a depthwise layer takes no tiles. `implementation` is the name of
// the implementation that decides for it (null: reached only inside
// another's kernel, or by tests); `dense_op` whether that implementation
// decides dense layers too (the integer nn.dense its legalization leaves).
struct U8S8Variant {
  Isa isa;
  Arithmetic arith;
  const char* name;
  const char* implementation;
  bool dense_op;
};
inline constexpr U8S8Variant kU8S8Variants[] = {
    {Isa::kScalar, Arithmetic::kMaddubs, "u8s8.scalar", nullptr, false},
    {Isa::kAvx2, Arithmetic::kMaddubs, "u8s8.avx2", "x86.spatial_pack.u8s8.avx2", true},
    {Isa::kAvx2, Arithmetic::kMadd16, "u8i16.avx2", "x86.spatial_pack.u8i16.avx2", false},
    {Isa::kAvxvnni, Arithmetic::kMaddubs, "u8s8.avxvnni", "x86.spatial_pack.u8s8.avxvnni", false},
    {Isa::kAvx512vnni, Arithmetic::kMaddubs, "u8s8.avx512vnni", "x86.spatial_pack.u8s8.avx512vnni", true},
    // Weights w - zw beyond s8 under the avx512vnni implementation.
    {Isa::kAvx512vnni, Arithmetic::kMadd16, "u8i16.avx512vnni", nullptr, false},
    {Isa::kDotprod, Arithmetic::kMaddubs, "u8s8.dotprod", "arm.spatial_pack.u8s8.dotprod", true},
    {Isa::kI8mm, Arithmetic::kMaddubs, "u8s8.i8mm", "arm.spatial_pack.u8s8.i8mm", true},
};

// The u8 x s8 variant (isa, arith) of the table; null if none.
constexpr const U8S8Variant* FindU8S8Variant(Isa isa, Arithmetic arith) {
  for (const U8S8Variant& v : kU8S8Variants) {
    if (v.isa == isa && v.arith == arith) return &v;
  }
  return nullptr;
}
// Whether the table has the variant (isa, arith) and it names an
// implementation: a constant expression under every build, where a pointer
// from FindU8S8Variant is not once UBSan instruments its use.
constexpr bool HasU8S8Implementation(Isa isa, Arithmetic arith) {
  for (const U8S8Variant& v : kU8S8Variants) {
    if (v.isa == isa && v.arith == arith) return v.implementation != nullptr;
  }
  return false;
}

// The variant (isa, arith) of the table, which must name an implementation
// (checked as the caller is compiled): what a target registers.
template <Isa kIsa, Arithmetic kArith = Arithmetic::kMaddubs>
const U8S8Variant& U8S8VariantOf() {
  static_assert(HasU8S8Implementation(kIsa, kArith), "not an implementation of the variant table");
  return *FindU8S8Variant(kIsa, kArith);
}

// Dynamically quantized convolutions (dynamic_conv.h): the instruction set
// of each implementation's kernel, none for the portable int16 one. Each
// decides dense layers too (the dynamic dense kernel).
struct DynamicVariant {
  std::optional<Isa> isa;
  const char* implementation;
};
inline constexpr DynamicVariant kDynamicVariants[] = {
    {Isa::kAvx512vnni, "x86.spatial_pack.dynamic.avx512vnni"},
    {Isa::kAvx2, "x86.spatial_pack.dynamic.u8i16.avx2"},
    {std::nullopt, "generic.spatial_pack.dynamic.int16"},
};

// The dynamic implementation on `isa` (none: the portable one); null if none.
constexpr const char* DynamicImplementation(std::optional<Isa> isa) {
  for (const DynamicVariant& v : kDynamicVariants) {
    if (v.isa == isa) return v.implementation;
  }
  return nullptr;
}

// The portable int16 kernel (CreateInt16), under each architecture's name.
inline constexpr const char* kGenericInt16Implementation = "generic.spatial_pack.int16";
inline constexpr const char* kArmInt16Implementation = "arm.spatial_pack.int16";
inline constexpr const char* kInt16Implementations[] = {kGenericInt16Implementation, kArmInt16Implementation};

// Dense layers on the u8 x s8 legalization where no variant above decides
// them (x86-64 below AVX2, AArch64 below the dot product): its integer
// nn.dense runs the portable int8 dense kernel, as under the variants that
// do (`dense_op`).
inline constexpr const char* kU8S8DenseAnyCpuImplementation = "generic.dense.u8s8";

// Old implementation names and what they are now.
struct RenamedImplementation {
  const char* old_name;
  const char* name;
};
inline constexpr RenamedImplementation kRenamedImplementations[] = {
    {"x86.spatial_pack.u8s8.vnni", "x86.spatial_pack.u8s8.avx512vnni"},
    {"x86.spatial_pack.dynamic.vnni", "x86.spatial_pack.dynamic.avx512vnni"},
};

// `name` as implementations are named now (an old name's new one, else
// `name` itself).
inline absl::string_view CurrentImplementationName(absl::string_view name) {
  for (const RenamedImplementation& r : kRenamedImplementations) {
    if (name == r.old_name) return r.name;
  }
  return name;
}

}  // namespace qnnc::kernels::spatial_pack

#endif  // QNNC_KERNELS_SPATIAL_PACK_VARIANTS_H_
