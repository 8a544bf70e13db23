// Caps what the CPUID instruction reports to this process, so that a peer
// which cannot be told to use lesser instruction sets (ONNX Runtime's MLAS
// picks its kernels from CPUID alone) runs its AVX2 kernels on an AVX-512
// VNNI host, as qnnc does under --isa / QNNC_ISA. That makes "qnnc at cap
// avx2 against ORT" a comparison of the same instruction sets in one run.
//
// How: Linux's CPUID faulting (arch_prctl ARCH_SET_CPUID, CPUs with the
// cpuid_fault flag) makes every CPUID instruction of the process raise
// SIGSEGV; a handler runs the real CPUID, clears the feature bits above the
// level and steps over the instruction. Any other SIGSEGV goes to the
// program's own SIGSEGV action (or the default), so crashes stay crashes.
// Libraries that read CPUID before the cap is installed (glibc's ifuncs, at
// load time) keep what they saw; the cap is for the peer's own dispatch.
//
// Hosts without CPUID faulting (most VMs): cpuid_patch writes a copy of the
// peer's library in which every CPUID instruction is `hlt; nop` (F4 90).
// HLT outside the kernel is a general-protection fault, a SIGSEGV like a
// faulting CPUID's, and the same handler emulates it (CpuidTrap::kPatched):
// then only the patched library's CPUIDs are capped, which is the peer's own
// dispatch.
//
// Used as LD_PRELOAD=libcpuid_cap_preload.so with QNNC_PEER_ISA=LEVEL (see
// cpuid_cap_preload.cc); x86-64 Linux only.
#ifndef QNNC_BENCH_PEERS_CPUID_CAP_H_
#define QNNC_BENCH_PEERS_CPUID_CAP_H_

#include <signal.h>

#include <cstdint>
#include <string>

#include "kernels/cpu/isa_level.h"

namespace qnnc::bench {

// The levels of qnnc's cap, the same levels and names
// (kernels/cpu/isa_level.h). avxvnni is avx2 plus AVX-VNNI. scalar is a plain
// x86-64 with SSE: no AVX of any kind (peers and XNNPACK then run their SSE
// code; none of them has a scalar-only mode).
using CpuidCapLevel = kernels::cpu::IsaLevel;

// A level's name (kernels::cpu::IsaLevelName); false for anything else.
bool ParseCpuidCapLevel(const std::string& name, CpuidCapLevel* level);

struct CpuidRegs {
  uint32_t eax, ebx, ecx, edx;
};

// Clears, in the result of CPUID(leaf, subleaf), the feature bits a CPU of
// `level` would not have (AVX*, AVX-512*, AVX-VNNI, AMX, AVX10, ...). Pure: the
// unit tests call it directly.
void MaskCpuid(CpuidCapLevel level, uint32_t leaf, uint32_t subleaf, CpuidRegs* regs);

// How the process's CPUIDs reach the handler: all of them by faulting, or
// only those a patched copy of a binary has as `hlt; nop` (kPatchedCpuid).
enum class CpuidTrap { kFaulting, kPatched };

// The two bytes cpuid_patch writes in place of CPUID's 0F A2: HLT, then a NOP
// the handler steps over with it. No compiler emits HLT in user code.
inline constexpr uint8_t kPatchedCpuid[2] = {0xF4, 0x90};

// Installs the SIGSEGV handler and, for kFaulting, turns on CPUID faulting
// for this thread (and the threads it creates later). Call it before any
// other thread exists. Empty on success; otherwise why not (no cpuid_fault on
// this CPU or kernel). A patched CPUID is emulated under either trap.
std::string InstallCpuidCap(CpuidCapLevel level, CpuidTrap trap = CpuidTrap::kFaulting);

bool CpuidCapInstalled();

// Once installed, the program's own SIGSEGV action (a runtime such as Node.js
// resets every signal to its default at startup, V8 installs its trap
// handler) must not replace the handler: it is recorded here instead, and
// the handler passes every SIGSEGV that is not a CPUID on to it.
void ReplaceChainedSegvAction(const struct sigaction* act, struct sigaction* old);

// libc's sigaction, past any interposed one.
int RealSigaction(int sig, const struct sigaction* act, struct sigaction* old);

}  // namespace qnnc::bench

#endif  // QNNC_BENCH_PEERS_CPUID_CAP_H_
