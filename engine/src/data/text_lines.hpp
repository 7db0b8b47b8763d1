// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Small text files read line by line (coefficient and permutation files): the lines, and the
// cells of a comma-separated line.

#include <cstddef>
#include <functional>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief The longest line the text readers take: 16 MiB (a row of a million 15-digit numbers);
 *  a longer one is refused once this much of it is read. */
inline constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;

/** @brief The text readers read in blocks of this size (64 KiB): a NUL byte is refused after at
 *  most one block past it. */
inline constexpr std::size_t kTextBlockBytes = std::size_t{1} << 16;

/**
 * @brief Checks that text read in blocks is UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing past U+10FFFF); a sequence may span two blocks.
 */
class Utf8Check {
 public:
  /** @brief The offset in `block` of the first byte that makes the text so far invalid UTF-8, or
   *  npos when it is valid (an unfinished sequence at the end waits for the next block). */
  std::size_t Feed(std::string_view block);
  /** @brief Whether the text ends inside a sequence (call after the last block). */
  bool Unfinished() const { return need_ > 0; }
  /** @brief The bytes of the unfinished sequence read so far (its lead included): where a
   *  message points is that many bytes before the failing byte (or the end). */
  std::size_t started() const { return started_; }

 private:
  int need_ = 0;            // continuation bytes still to come
  std::size_t started_ = 0;  // bytes of the current sequence read
  unsigned char lo_ = 0x80;  // the range of the next continuation byte
  unsigned char hi_ = 0xBF;
};

/** @brief Where the byte text[offset] is: where(line) + "column C" (C counts characters). */
std::string TextPlace(std::string_view text, std::size_t offset,
                      const std::function<std::string(std::size_t line)>& where);

/**
 * @brief The message of a byte that is not UTF-8 (the lead of a broken or cut sequence): where it is (line and character column in
 * `text`, which holds it at `offset`) and what to do.
 * @param where the start of a message for a line: where(7) = "data.csv:7: ".
 */
std::string NotUtf8Message(std::string_view text, std::size_t offset,
                           const std::function<std::string(std::size_t line)>& where);

/**
 * @brief Appends all of `in` to `text`, in blocks of kTextBlockBytes, refusing binary input as
 * soon as it is seen: a NUL byte (a binary or UTF-16 file, or a sparse tail), or a line longer
 * than kMaxLineBytes, or bytes that are not UTF-8 (a Latin-1 file, say). None reads the rest of
 * the input.
 * @param text empty, or the input's first bytes that the caller has already read (checked too).
 * @param where the start of a message for a line: where(7) = "data.csv:7: ".
 * @param options the options that name the file (Error::options()).
 * @param expected_size the input's size when known (a file's): room for it is reserved once the
 *   first block has passed the checks.
 * @throws DataError naming the line and what to do; also when reading fails.
 */
void ReadCheckedText(std::istream& in, std::string& text,
                     const std::function<std::string(std::size_t line)>& where,
                     const std::vector<std::string>& options = {}, std::size_t expected_size = 0);

/**
 * @brief The lines of a text file, without their line ends; a UTF-8 BOM and CR line ends are
 * removed. Line k + 1 of the file is element k.
 * @param what how messages name the file (e.g. "coefficients file model.csv").
 * @param options the options that name the file (Error::options()).
 * @throws DataError when the file cannot be opened or read, or is not text (ReadCheckedText).
 */
std::vector<std::string> ReadTextLines(const std::string& path, const std::string& what,
                                       const std::vector<std::string>& options);

/** @brief `s` without surrounding blanks (space, tab, CR, LF) and, then, one pair of double quotes. */
std::string TrimCell(std::string s);

/** @brief The cells of a comma-separated line, each trimmed (TrimCell); "a," has two cells. */
std::vector<std::string> SplitCells(const std::string& line);

}}}  // namespace perfshap::detail
