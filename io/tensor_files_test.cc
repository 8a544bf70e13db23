#include "io/tensor_files.h"

#include <cstdio>
#include <filesystem>

#include "gtest/gtest.h"

namespace qnnc::io {
namespace {

using tensor::DType;
using tensor::Tensor;

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

TEST(TensorFiles, NpyRoundTrip) {
  for (DType d : {DType::kU8, DType::kI8, DType::kI16, DType::kI32, DType::kI64, DType::kF32}) {
    Tensor t = Tensor::Zeros(d, {2, 3});
    for (int64_t i = 0; i < t.byte_size(); ++i) static_cast<uint8_t*>(t.raw_data())[i] = i * 7 + 1;
    std::string path = TempPath("t.npy");
    ASSERT_TRUE(WriteTensorFile(path, t).ok());
    auto back = ReadTensorFile(path, {d, {2, 3}});
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_TRUE(back->BitwiseEquals(t)) << tensor::DTypeName(d);
  }
  Tensor scalar = Tensor::Scalar<float>(2.5f);
  auto parsed = ParseNpy(SerializeNpy(scalar), "scalar");
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->BitwiseEquals(scalar));
  EXPECT_EQ(SerializeNpy(scalar).size() % 64, 4u);  // header padded to 64, then 4 data bytes
}

TEST(TensorFiles, NpyErrors) {
  EXPECT_FALSE(ParseNpy("garbage", "g").ok());
  std::string good = SerializeNpy(Tensor::Zeros(DType::kF32, {4}));
  // A header that lies about the size.
  std::string lying = good;
  lying.replace(lying.find("(4,)"), 4, "(5,)");
  auto r = ParseNpy(lying, "lying.npy");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("lying.npy"), std::string::npos);
  std::string fortran = good;
  fortran.replace(fortran.find("False"), 5, "True ");
  EXPECT_FALSE(ParseNpy(fortran, "f").ok());
  std::string neg = good;
  neg.replace(neg.find("(4,)"), 4, "(-4)");
  EXPECT_FALSE(ParseNpy(neg, "n").ok());
  EXPECT_FALSE(ParseNpy(good.substr(0, 20), "t").ok());
}

TEST(TensorFiles, RawNeedsTheExactSize) {
  std::string path = TempPath("raw.bin");
  ASSERT_TRUE(WriteFileAtomically(path, std::string(12, '\1')).ok());
  EXPECT_TRUE(ReadTensorFile(path, {DType::kF32, {3}}).ok());
  auto r = ReadTensorFile(path, {DType::kF32, {4}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("has 12 bytes"), std::string::npos) << r.status();
  EXPECT_FALSE(ReadTensorFile(TempPath("missing.bin"), {DType::kF32, {3}}).ok());
}

// A file written by a writer is there whole, or not at all: a writer's
// error leaves neither the file nor its temporary, and an older file stays.
TEST(TensorFiles, WrittenByAWriterWholeOrNotAtAll) {
  const std::string path = TempPath("streamed.bin");
  ASSERT_TRUE(WriteFileAtomically(path, [](std::ostream& out) {
                out << "first";
                out << "second";
                return absl::OkStatus();
              }).ok());
  auto read = ReadFileToString(path);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, "firstsecond");
  absl::Status failed = WriteFileAtomically(path, [](std::ostream& out) {
    out << "partial";
    return absl::DataLossError("the writer gave up");
  });
  EXPECT_EQ(failed.message(), "the writer gave up");
  read = ReadFileToString(path);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, "firstsecond");
  const std::string dir = TempPath("");
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    files += e.path().filename().string().rfind("streamed.bin", 0) == 0;
  }
  EXPECT_EQ(files, 1) << "a temporary file was left";
}

TEST(TensorFiles, NpyOfAnotherDTypeIsRejected) {
  std::string path = TempPath("i32.npy");
  ASSERT_TRUE(WriteTensorFile(path, Tensor::Zeros(DType::kI32, {3})).ok());
  EXPECT_FALSE(ReadTensorFile(path, {DType::kF32, {3}}).ok());
  EXPECT_TRUE(ReadTensorFile(path, {DType::kI32, {1, 3}}).ok());  // same size: reshaped
}

TEST(TensorFiles, AtomicWriteLeavesNoTempFile) {
  std::string dir = TempPath("atomic");
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(WriteFileAtomically(dir + "/out.bin", "abc").ok());
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(e.path().filename(), "out.bin");
  }
  EXPECT_EQ(files, 1);
  EXPECT_FALSE(WriteFileAtomically(dir + "/no/such/dir/out.bin", "abc").ok());
}

TEST(TensorFiles, FailedAtomicWriteLeavesNothingUnderTheRealName) {
  std::string dir = TempPath("atomic_fail");
  std::filesystem::create_directories(dir + "/taken/child");
  // The rename onto a non-empty directory fails: no temporary file stays.
  EXPECT_FALSE(WriteFileAtomically(dir + "/taken", "abc").ok());
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(e.path().filename(), "taken");
  }
  EXPECT_EQ(files, 1);
  EXPECT_TRUE(std::filesystem::is_directory(dir + "/taken/child"));
}

TEST(TensorFiles, NpyHeaderClaimingGigabytesFailsBeforeAllocating) {
  // A fuzz finding: the tensor was allocated before the size check.
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000, 1000000), }";
  std::string npy = std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header;
  auto t = ParseNpy(npy, "lies.npy");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("header says 4000000000000 bytes of data, the file has 0"),
            std::string::npos)
      << t.status();
}

}  // namespace
}  // namespace qnnc::io
