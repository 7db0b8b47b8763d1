// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Small text files read line by line (coefficient and permutation files): the lines, and the
// cells of a comma-separated line.

#include <string>
#include <vector>

namespace perfshap::detail {

/**
 * @brief The lines of a text file, without their line ends; a UTF-8 BOM and CR line ends are
 * removed. Line k + 1 of the file is element k.
 * @param what how messages name the file (e.g. "coefficients file model.csv").
 * @param options the options that name the file (Error::options()).
 * @throws DataError when the file cannot be opened.
 */
std::vector<std::string> ReadTextLines(const std::string& path, const std::string& what,
                                       const std::vector<std::string>& options);

/** @brief `s` without surrounding blanks (space, tab, CR, LF) and, then, one pair of double quotes. */
std::string TrimCell(std::string s);

/** @brief The cells of a comma-separated line, each trimmed (TrimCell); "a," has two cells. */
std::vector<std::string> SplitCells(const std::string& line);

}  // namespace perfshap::detail
