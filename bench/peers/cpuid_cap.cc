// cpuid_cap.h: CPUID faulting and the SIGSEGV handler that emulates CPUID
// with the features above the cap cleared.
#include "bench/peers/cpuid_cap.h"

#include <cerrno>
#include <cstring>

#if defined(__x86_64__) && defined(__linux__)
#include <asm/prctl.h>
#include <cpuid.h>
#include <dlfcn.h>
#include <signal.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>
#define QNNC_CPUID_CAP 1
#endif

namespace qnnc::bench {
namespace {

constexpr uint32_t Bit(int i) { return uint32_t{1} << i; }

// CPUID.(EAX=1): Intel SDM vol. 2A, "CPUID". FMA, AVX, F16C.
constexpr uint32_t kL1EcxAvx = Bit(12) | Bit(28) | Bit(29);
// CPUID.(EAX=7,ECX=0) and (EAX=7,ECX=1).
constexpr uint32_t kL7EbxAvx2 = Bit(5);
constexpr uint32_t kL7Ebx512 = Bit(16) | Bit(17) | Bit(21) | Bit(26) | Bit(27) | Bit(28) |
                               Bit(30) | Bit(31);  // F DQ IFMA PF ER CD BW VL
constexpr uint32_t kL7Ebx512Skx = Bit(16) | Bit(17) | Bit(28) | Bit(30) | Bit(31);
constexpr uint32_t kL7Ecx512 = Bit(1) | Bit(6) | Bit(11) | Bit(12) | Bit(14);  // VBMI VBMI2 VNNI BITALG VPOPCNTDQ
constexpr uint32_t kL7Edx512 = Bit(2) | Bit(3) | Bit(8) | Bit(23);  // 4VNNIW 4FMAPS VP2INTERSECT FP16
constexpr uint32_t kL7EdxAmx = Bit(22) | Bit(24) | Bit(25);          // AMX-BF16 AMX-TILE AMX-INT8
constexpr uint32_t kL71EaxAvxVnni = Bit(4);
constexpr uint32_t kL71Eax512Bf16 = Bit(5);
constexpr uint32_t kL71EaxAmxFp16 = Bit(21);
constexpr uint32_t kL71EaxAvxIfma = Bit(23);
constexpr uint32_t kL71EdxNewAvx = Bit(4) | Bit(5);  // AVX-VNNI-INT8 AVX-NE-CONVERT
constexpr uint32_t kL71EdxAmxComplex = Bit(8);
constexpr uint32_t kL71EdxAvx10 = Bit(19);

volatile CpuidCapLevel g_level = CpuidCapLevel::kAvx2;
volatile bool g_installed = false;
volatile bool g_faulting = false;
// What SIGSEGV did before, or what the program asked for since (the
// preload's sigaction keeps the handler and records the program's here).
struct sigaction g_previous;

#ifdef QNNC_CPUID_CAP
long SetCpuidFaulting(bool on) {
  // ARCH_SET_CPUID's argument is "CPUID allowed": 0 makes it fault.
  return syscall(SYS_arch_prctl, ARCH_SET_CPUID, on ? 0 : 1);
}

void ChainToPrevious(int sig, siginfo_t* info, void* context) {
  if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction != nullptr) {
    g_previous.sa_sigaction(sig, info, context);
    return;
  }
  if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(sig);
    return;
  }
  // Default action: it happens when the handler returns (a fault re-executes
  // its instruction; a sent signal stays pending until then).
  struct sigaction fallback;
  std::memset(&fallback, 0, sizeof fallback);
  fallback.sa_handler = SIG_DFL;
  RealSigaction(sig, &fallback, nullptr);
  raise(sig);
}

void OnSegv(int sig, siginfo_t* info, void* context) {
  auto* uc = static_cast<ucontext_t*>(context);
  greg_t* regs = uc->uc_mcontext.gregs;
  // A faulting CPUID or a patched one's HLT is a general-protection fault
  // (SI_KERNEL); only then is the instruction pointer known to point at
  // readable code.
  const auto* ip = reinterpret_cast<const uint8_t*>(regs[REG_RIP]);
  const bool cpuid = info->si_code == SI_KERNEL &&
                     ((ip[0] == 0x0F && ip[1] == 0xA2) || (ip[0] == kPatchedCpuid[0] && ip[1] == kPatchedCpuid[1]));
  if (!cpuid) {
    ChainToPrevious(sig, info, context);
    return;
  }
  const uint32_t leaf = static_cast<uint32_t>(regs[REG_RAX]);
  const uint32_t subleaf = static_cast<uint32_t>(regs[REG_RCX]);
  CpuidRegs r;
  if (g_faulting) SetCpuidFaulting(false);
  __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
  if (g_faulting) SetCpuidFaulting(true);
  MaskCpuid(g_level, leaf, subleaf, &r);
  // CPUID writes the low halves and zeroes the upper halves of RAX..RDX.
  regs[REG_RAX] = r.eax;
  regs[REG_RBX] = r.ebx;
  regs[REG_RCX] = r.ecx;
  regs[REG_RDX] = r.edx;
  regs[REG_RIP] += 2;
}
#endif  // QNNC_CPUID_CAP

}  // namespace

int RealSigaction(int sig, const struct sigaction* act, struct sigaction* old) {
  using Fn = int (*)(int, const struct sigaction*, struct sigaction*);
  // libc's, also when a preloaded sigaction (cpuid_cap_preload.cc) hides it.
  static const Fn real = [] {
#ifdef QNNC_CPUID_CAP
    void* next = dlsym(RTLD_NEXT, "sigaction");
    if (next != nullptr) return reinterpret_cast<Fn>(next);
#endif
    return static_cast<Fn>(&::sigaction);
  }();
  return real(sig, act, old);
}

bool CpuidCapInstalled() { return g_installed; }

void ReplaceChainedSegvAction(const struct sigaction* act, struct sigaction* old) {
  if (old != nullptr) *old = g_previous;
  if (act != nullptr) g_previous = *act;
}

bool ParseCpuidCapLevel(const std::string& name, CpuidCapLevel* level) {
  return kernels::cpu::IsaLevelNamed(name, level) && kernels::cpu::LevelOfArch(*level, kernels::cpu::Arch::kX86_64);
}

void MaskCpuid(CpuidCapLevel level, uint32_t leaf, uint32_t subleaf, CpuidRegs* regs) {
  const bool no_avx = level == CpuidCapLevel::kScalar;
  const bool no_512 = no_avx || level == CpuidCapLevel::kAvx2 || level == CpuidCapLevel::kAvxvnni;
  // AMX, AVX10 and the AVX features newer than AVX-VNNI are above every level.
  if (leaf == 1) {
    if (no_avx) regs->ecx &= ~kL1EcxAvx;
  } else if (leaf == 7 && subleaf == 0) {
    regs->edx &= ~kL7EdxAmx;
    if (no_avx) regs->ebx &= ~kL7EbxAvx2;
    if (no_512) {
      regs->ebx &= ~kL7Ebx512;
      regs->ecx &= ~kL7Ecx512;
      regs->edx &= ~kL7Edx512;
    } else if (level == CpuidCapLevel::kAvx512bw) {
      // Skylake-SP: F, DQ, CD, BW and VL, nothing later.
      regs->ebx &= ~(kL7Ebx512 & ~kL7Ebx512Skx);
      regs->ecx &= ~kL7Ecx512;
      regs->edx &= ~kL7Edx512;
    }
  } else if (leaf == 7 && subleaf == 1) {
    regs->eax &= ~(kL71EaxAmxFp16 | kL71EaxAvxIfma);
    regs->edx &= ~(kL71EdxNewAvx | kL71EdxAmxComplex | kL71EdxAvx10);
    if (level != CpuidCapLevel::kAvxvnni && level != CpuidCapLevel::kAvx512vnni) {
      regs->eax &= ~kL71EaxAvxVnni;
    }
    if (level != CpuidCapLevel::kAvx512vnni) regs->eax &= ~kL71Eax512Bf16;
  } else if (leaf == 0x1D || leaf == 0x1E || leaf == 0x24) {
    *regs = CpuidRegs{0, 0, 0, 0};  // AMX tile and AVX10 enumeration
  }
}

std::string InstallCpuidCap(CpuidCapLevel level, CpuidTrap trap) {
#ifndef QNNC_CPUID_CAP
  (void)level;
  (void)trap;
  return "capping CPUID needs x86-64 Linux";
#else
  g_level = level;
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_sigaction = OnSegv;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  if (RealSigaction(SIGSEGV, &action, &g_previous) != 0) {
    return std::string("sigaction(SIGSEGV): ") + std::strerror(errno);
  }
  if (trap == CpuidTrap::kFaulting && SetCpuidFaulting(true) != 0) {
    const int err = errno;
    RealSigaction(SIGSEGV, &g_previous, nullptr);
    return std::string("arch_prctl(ARCH_SET_CPUID) failed: ") + std::strerror(err) +
           " (CPUID faulting needs a CPU and kernel with the cpuid_fault flag in /proc/cpuinfo;"
           " elsewhere patch the peer's library with cpuid_patch and set QNNC_PEER_CPUID=patched)";
  }
  g_faulting = trap == CpuidTrap::kFaulting;
  g_installed = true;
  return "";
#endif
}

}  // namespace qnnc::bench
