// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The text readers refuse binary input as soon as they see it (issue 20: a 1 GB file of NUL
// bytes was read whole before it was refused): a NUL byte within the block it is read in, a
// line longer than kMaxLineBytes once that much of it is read. The proof that the rest is never
// read: 64 GiB sparse files (ftruncate; no disk used), which no reader could hold. And the
// label-optional reading that lets a file be read once whether or not it has the label.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "data/text_lines.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/split.hpp"
#include "support/expect_error.hpp"
#include "support/fifo.hpp"
#include "support/temp_files.hpp"

namespace perfshap { inline namespace v0 {
namespace {

constexpr off_t kSparseSize = off_t{64} << 30;  // 64 GiB, beyond this machine's memory

/** A file holding `head`, then NUL bytes up to kSparseSize (a hole: no disk is used), removed
 *  with this object. */
class SparseFile {
 public:
  SparseFile(const std::string& name, const std::string& head) : path_(testing::WriteTempFile(name, head)) {
    EXPECT_EQ(::truncate(path_.c_str(), kSparseSize), 0) << "cannot make the sparse file " << path_;
    EXPECT_EQ(std::filesystem::file_size(path_), static_cast<std::uintmax_t>(kSparseSize));
  }
  ~SparseFile() { std::filesystem::remove(path_); }
  SparseFile(const SparseFile&) = delete;
  SparseFile& operator=(const SparseFile&) = delete;
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

CsvOptions Label() {
  CsvOptions csv;
  csv.label = "y";
  return csv;
}

TEST(TextLimits, ANulFileIsRefusedInItsFirstBlock) {
  const SparseFile nul("nul.csv", "");
  const std::string& path = nul.path();
  testing::ExpectDataError([&] { ReadCsv(path, Label()); },
                           {path + ":1: the file holds a NUL byte", "not a text file", "UTF-8"});
}

TEST(TextLimits, ALatin1CsvIsRefusedAtItsLineAndColumn) {
  // Hardening round 2, item 12: found when reading, naming the line and the character column,
  // not after the run as an internal JSON error.
  const std::string path = testing::WriteTempFile("latin1.csv", "name,y\ncaf\xE9,1\nok,0\n");
  testing::ExpectDataError([&] { ReadCsv(path, Label()); },
                           {path + ":2: column 4: the text is not UTF-8 (byte 0xE9", "re-save the file as UTF-8"});
  // UTF-8 itself passes: two-, three- and four-byte characters.
  const std::string utf8 = testing::WriteTempFile("utf8.csv", "a,y\n1,0\n2,1\n3,0\n4,1\n");
  EXPECT_NO_THROW(ReadCsv(utf8, Label()));
  detail::Utf8Check check;
  EXPECT_EQ(check.Feed("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98"), std::string_view::npos);
  EXPECT_TRUE(check.Unfinished());
  EXPECT_EQ(check.Feed("\x80"), std::string_view::npos);  // the 4-byte character ends in the next block
  EXPECT_FALSE(check.Unfinished());
  EXPECT_EQ(detail::Utf8Check().Feed("\xC0\x80"), 0u);      // overlong
  EXPECT_EQ(detail::Utf8Check().Feed("a\xED\xA0\x80"), 2u);  // a surrogate
}

TEST(TextLimits, ANulTailAfterTextIsRefusedAtItsLine) {
  const SparseFile tail("tail.csv", "a,y\n1,0\n2,1\n");
  const std::string& path = tail.path();
  testing::ExpectDataError([&] { ReadCsv(path, Label()); }, {path + ":4: the file holds a NUL byte"});
  // CRLF and lone CR line ends count as the CSV reader counts them.
  const SparseFile tail_cr("tail_cr.csv", "a,y\r\n1,0\r2,1\r\n");
  const std::string& cr = tail_cr.path();
  testing::ExpectDataError([&] { ReadCsv(cr, Label()); }, {cr + ":4: the file holds a NUL byte"});
}

TEST(TextLimits, ALineLongerThanTheLimitIsRefusedOnceThatMuchIsRead) {
  // Line 2 holds two blocks more than kMaxLineBytes of digits (no line end), then 64 GiB of NUL
  // bytes: the long line is refused before the tail is reached.
  std::string head = "a,y\n";
  head.append(detail::kMaxLineBytes + 2 * detail::kTextBlockBytes, '7');
  const SparseFile long_line("long.csv", head);
  const std::string& path = long_line.path();
  testing::ExpectDataError([&] { ReadCsv(path, Label()); }, {path + ":2: the line is longer than 16 MiB"});
  // A line of exactly the limit is text.
  std::string fits = "a,y\n";
  fits.append(detail::kMaxLineBytes - 2, 'q');
  fits += ",1\nr,0\n";
  const std::string fits_path = testing::WriteTempFile("fits.csv", fits);
  const Dataset data = ReadCsv(fits_path, Label());
  std::filesystem::remove(fits_path);
  EXPECT_EQ(data.n_rows(), 2U);
}

TEST(TextLimits, GzipIsStillNamedAsSuch) {
  const std::string path =
      testing::WriteTempFile("data.csv", std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00", 8));
  testing::ExpectDataError([&] { ReadCsv(path, Label()); }, {"is gzip-compressed; decompress it first"});
}

// The small text files (coefficients, permutations) read through the same checks.
TEST(TextLimits, CoefficientAndPermutationFilesRefuseBinaryInput) {
  const SparseFile coef_file("coef.csv", "name,coef\nconst,1\n");
  const std::string& coef = coef_file.path();
  testing::ExpectDataError([&] { ReadGlmCoefficients(coef); },
                           {"coefficients file " + coef + " line 3: the file holds a NUL byte"},
                           "coefficients");
  std::string head = "0\n";
  head.append(detail::kMaxLineBytes + 2 * detail::kTextBlockBytes, '1');
  const SparseFile pi_file("pi.txt", head);
  const std::string& pi = pi_file.path();
  testing::ExpectDataError([&] { ReadRowPermutation(pi, 3); },
                           {"permutation file " + pi + " line 2: the line is longer than 16 MiB"},
                           "permutation");
  // Ordinary files read as before (a last line without its line end, CR line ends).
  EXPECT_EQ(ReadRowPermutation(testing::WriteTempFile("ok.txt", "2\r\n0\n1"), 3),
            (std::vector<std::size_t>{2, 0, 1}));
}

// A pipe is read once, whatever its size (no file size to reserve).
TEST(TextLimits, APipeIsReadOnce) {
  std::string text = "a,y\n";
  for (int i = 0; i < 20000; ++i) text += std::to_string(i) + "," + std::to_string(i % 2) + "\n";
  const testing::FifoWriter pipe("pipe.csv", text);
  const Dataset data = ReadCsv(pipe.path(), Label());
  EXPECT_EQ(data.n_rows(), 20000U);
  EXPECT_EQ(data.column(0)[19999], 19999.0);
}

// label_optional: the label is taken when the header has it, and every column is a feature when
// it has not; the file (or table) is read once either way.
TEST(CsvLabelOptional, TakesTheLabelWhenTheHeaderHasIt) {
  CsvOptions csv = Label();
  csv.label_optional = true;
  const Dataset with = ReadCsv(testing::WriteTempFile("with.csv", "a,y,b\n1,0,2\n3,1,4\n"), csv);
  EXPECT_EQ(with.feature_names(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(with.label_name(), "y");
  EXPECT_EQ(std::vector<double>(with.label().begin(), with.label().end()), (std::vector<double>{0, 1}));
  const Dataset without = ReadCsv(testing::WriteTempFile("without.csv", "a,b\n1,2\n3,4\n"), csv);
  EXPECT_EQ(without.feature_names(), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(without.label().empty());
  EXPECT_EQ(without.label_name(), "");
  // Without label_optional the missing label column is still an error.
  testing::ExpectDataError([&] { ReadCsv(testing::WriteTempFile("strict.csv", "a,b\n1,2\n"), Label()); },
                           {"no column named 'y' for the label"}, "label");
}

}  // namespace
}}  // namespace perfshap
