// cpuid_patch IN OUT: writes a copy of the x86-64 ELF binary IN (a shared
// library such as ONNX Runtime's, or a program) in which every CPUID
// instruction is `hlt; nop` (cpuid_cap.h, kPatchedCpuid). Under
// libcpuid_cap_preload.so with QNNC_PEER_CPUID=patched, those instructions
// then report the capped features on a host that cannot fault CPUID.
//
// Which bytes are instructions is binutils' objdump's answer (its linear
// disassembly of the executable sections, run as `objdump -d`): a 0F A2 pair
// may also stand inside another instruction, so the bytes alone do not say.
// (A linear disassembly can still misread data placed inside code; compilers
// do not put any there on x86-64, and the peer's output is checked against
// the stored reference in every benchmark run, which a broken patch would
// show.)
// Each site must hold 0F A2 at its file offset (found through the PT_LOAD
// segments). OUT is written whole or not at all; no CPUID in IN is an error,
// since the cap would then silently not apply.
#include <elf.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "bench/peers/cpuid_cap.h"
#include "re2/re2.h"

extern char** environ;

namespace qnnc::bench {
namespace {

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// The addresses objdump disassembles as `cpuid` in `path`.
absl::StatusOr<std::vector<uint64_t>> CpuidAddresses(const std::string& path, const std::string& tmp) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> args = {"objdump", "-d", "--no-show-raw-insn", path};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int status = 0;
  const int spawned = posix_spawnp(&pid, "objdump", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  const bool ran = spawned == 0 && waitpid(pid, &status, 0) == pid;
  absl::StatusOr<std::string> listing = ReadFile(tmp);
  std::remove(tmp.c_str());
  if (!ran) {
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot run objdump (", std::strerror(spawned), "): it needs binutils' objdump on PATH (Debian: apt-get "
        "install binutils) and a writable directory for ", tmp));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !listing.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("objdump -d failed on ", path));
  }
  // "  b8d5ea:\tcpuid" (objdump pads the address with spaces).
  static const RE2 kCpuid(R"(^\s*([0-9a-f]+):\s+cpuid\s*$)");
  std::vector<uint64_t> addresses;
  for (absl::string_view line : absl::StrSplit(*listing, '\n')) {
    std::string hex;
    if (RE2::FullMatch(re2::StringPiece(line.data(), line.size()), kCpuid, &hex)) addresses.push_back(std::stoull(hex, nullptr, 16));
  }
  return addresses;
}

// The file offset of the virtual address `vaddr` in an executable segment.
absl::StatusOr<uint64_t> FileOffset(const std::string& elf, uint64_t vaddr) {
  Elf64_Ehdr eh;
  std::memcpy(&eh, elf.data(), sizeof eh);
  for (int i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, elf.data() + eh.e_phoff + static_cast<uint64_t>(i) * eh.e_phentsize, sizeof ph);
    if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) && vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_filesz &&
        ph.p_filesz - (vaddr - ph.p_vaddr) >= 2) {
      const uint64_t within = vaddr - ph.p_vaddr;
      if (ph.p_offset > elf.size() || within > elf.size() - ph.p_offset || elf.size() - ph.p_offset - within < 2) {
        return absl::InvalidArgumentError(absl::StrCat("cpuid at 0x", absl::Hex(vaddr), " lies past the end of the file"));
      }
      return ph.p_offset + within;
    }
  }
  return absl::InvalidArgumentError(absl::StrCat("cpuid at 0x", absl::Hex(vaddr), " is in no executable segment"));
}

absl::Status CheckElf(const std::string& elf) {
  Elf64_Ehdr eh;
  if (elf.size() < sizeof eh || std::memcmp(elf.data(), ELFMAG, SELFMAG) != 0) {
    return absl::InvalidArgumentError("not an ELF file");
  }
  std::memcpy(&eh, elf.data(), sizeof eh);
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != EM_X86_64) {
    return absl::InvalidArgumentError("not a 64-bit x86-64 ELF file");
  }
  const uint64_t table = static_cast<uint64_t>(eh.e_phnum) * eh.e_phentsize;  // < 2^32: no overflow
  if (eh.e_phentsize < sizeof(Elf64_Phdr) || eh.e_phoff > elf.size() || table > elf.size() - eh.e_phoff) {
    return absl::InvalidArgumentError("its program headers lie outside the file");
  }
  return absl::OkStatus();
}

absl::StatusOr<int> Patch(const std::string& in, const std::string& out) {
  absl::StatusOr<std::string> elf = ReadFile(in);
  if (!elf.ok()) return elf.status();
  if (absl::Status s = CheckElf(*elf); !s.ok()) return s;
  absl::StatusOr<std::vector<uint64_t>> sites = CpuidAddresses(in, out + ".objdump.tmp");
  if (!sites.ok()) return sites.status();
  if (sites->empty()) return absl::InvalidArgumentError("has no CPUID instruction: there is nothing to cap");
  for (uint64_t vaddr : *sites) {
    absl::StatusOr<uint64_t> offset = FileOffset(*elf, vaddr);
    if (!offset.ok()) return offset.status();
    char* at = elf->data() + *offset;
    if (static_cast<uint8_t>(at[0]) != 0x0F || static_cast<uint8_t>(at[1]) != 0xA2) {
      return absl::InvalidArgumentError(absl::StrCat("the bytes at 0x", absl::Hex(vaddr), " are not CPUID's 0F A2"));
    }
    at[0] = static_cast<char>(kPatchedCpuid[0]);
    at[1] = static_cast<char>(kPatchedCpuid[1]);
  }
  struct stat st;
  const mode_t mode = stat(in.c_str(), &st) == 0 ? (st.st_mode & 0777) : 0755;
  const std::string tmp = out + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(elf->data(), static_cast<std::streamsize>(elf->size()));
    f.close();
    if (f.fail()) {
      std::remove(tmp.c_str());
      return absl::InvalidArgumentError(absl::StrCat("cannot write ", out));
    }
  }
  if (chmod(tmp.c_str(), mode) != 0 || std::rename(tmp.c_str(), out.c_str()) != 0) {
    std::remove(tmp.c_str());
    return absl::InvalidArgumentError(absl::StrCat("cannot write ", out));
  }
  return static_cast<int>(sites->size());
}

}  // namespace
}  // namespace qnnc::bench

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: cpuid_patch IN OUT (an x86-64 ELF binary; OUT gets its CPUIDs as hlt; nop)\n");
    return 2;
  }
  absl::StatusOr<int> n = qnnc::bench::Patch(argv[1], argv[2]);
  if (!n.ok()) {
    std::fprintf(stderr, "cpuid_patch: %s: %s\n", argv[1], std::string(n.status().message()).c_str());
    return 1;
  }
  std::printf("cpuid_patch: %d CPUID instructions of %s rewritten in %s\n", *n, argv[1], argv[2]);
  return 0;
}
