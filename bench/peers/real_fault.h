// A real memory fault for the tests that check a crash still crashes under
// the CPUID cap: a store to a page mapped without access. Not a null pointer:
// UndefinedBehaviorSanitizer reports a null store as undefined behaviour and
// stops the program before it faults; this store is defined until the CPU
// refuses it, so every build (plain, ASan, UBSan, both) dies of SIGSEGV.
#ifndef QNNC_BENCH_PEERS_REAL_FAULT_H_
#define QNNC_BENCH_PEERS_REAL_FAULT_H_

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>

namespace qnnc::bench {

[[noreturn]] inline void StoreToInaccessiblePage() {
  void* page = mmap(nullptr, static_cast<size_t>(sysconf(_SC_PAGESIZE)), PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) std::abort();
  *static_cast<volatile int*>(page) = 1;
  std::abort();  // not reached: the store faults
}

}  // namespace qnnc::bench

#endif  // QNNC_BENCH_PEERS_REAL_FAULT_H_
