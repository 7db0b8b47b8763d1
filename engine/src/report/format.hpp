// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Numbers and cells of the console tables, written once for every reporter.

#include <cstddef>
#include <string>

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief One number printed with a printf format that takes one double (e.g. "%.6f"). */
std::string Fmt(const char* fmt, double v);

/**
 * @brief `text` padded with spaces to `width` characters, with at least `min_gap` spaces after
 * it (a name longer than its column still stands apart from the next cell).
 */
std::string PadRight(std::string text, std::size_t width, std::size_t min_gap = 0);

/**
 * @brief "mean +- std" with `decimals` decimals each, the mean with its sign when `sign`
 * ("+0.3045 +- 0.0214").
 */
std::string MeanStdCell(double mean, double std, int decimals, bool sign);

/**
 * @brief A value over the splits of a plan: "mean +- std" with 4 decimals for several splits,
 * the mean alone with 6 decimals for one split (its std is 0); signed when `sign`.
 */
std::string BandCell(double mean, double std, std::size_t n_splits, bool sign);

}}}  // namespace perfshap::detail
