// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Small text files read line by line (coefficient and permutation files): the lines, and the
// cells of a comma-separated line.

#include <cstddef>
#include <functional>
#include <istream>
#include <string>
#include <vector>

namespace perfshap::inline v0::detail {

/** @brief The longest line the text readers take: 16 MiB (a row of a million 15-digit numbers);
 *  a longer one is refused once this much of it is read. */
inline constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;

/** @brief The text readers read in blocks of this size (64 KiB): a NUL byte is refused after at
 *  most one block past it. */
inline constexpr std::size_t kTextBlockBytes = std::size_t{1} << 16;

/**
 * @brief Appends all of `in` to `text`, in blocks of kTextBlockBytes, refusing binary input as
 * soon as it is seen: a NUL byte (a binary or UTF-16 file, or a sparse tail), or a line longer
 * than kMaxLineBytes. Neither reads the rest of the input.
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

}  // namespace perfshap::detail
