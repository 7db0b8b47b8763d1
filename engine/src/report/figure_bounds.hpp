// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The bounds of the figures that grow with the rows explained: a beeswarm (strip chart) draws
// at most kMaxPointsPerFeature rows per feature, a deterministic sample of evenly spaced rows
// (the same at any thread count, stated in the figure), and a beeswarm or a row's waterfall
// shows at most kMaxFeaturesShown features by importance, the others summed into one row
// "N other features" (as shap's summary plot does). A figure under the bounds is drawn exactly
// as without them. The bounds are what `--figures summary` draws (report/output.hpp FigureSet).

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "report/svg.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief The most rows a beeswarm draws per feature. */
inline constexpr std::size_t kMaxPointsPerFeature = 1000;
/** @brief The most features a beeswarm or a waterfall shows by name; the others are one row. */
inline constexpr std::size_t kMaxFeaturesShown = 20;
/** @brief The most per-row figures (one waterfall per explained row) `--figures all` draws. */
inline constexpr std::size_t kMaxRowFigures = 100;

/**
 * @brief The rows a beeswarm of `n` rows draws: all of them (0..n-1) when n <= `max`, otherwise
 * `max` evenly spaced ones, row floor(k n / max) for k = 0..max-1 (increasing, distinct).
 */
std::vector<std::size_t> RowsShown(std::size_t n, std::size_t max = kMaxPointsPerFeature);

/** @brief `n` with a comma between thousands ("35,100"). */
std::string WithThousands(std::size_t n);

/** @brief "; 1,000 of 35,100 rows shown (evenly spaced)": what a title adds when a figure draws
 *  `shown` of `total` rows (`unit`: "rows", "individuals"); empty when it draws them all. */
std::string RowsShownNote(std::size_t shown, std::size_t total, const std::string& unit);

/** @brief How many features a figure of `n` features shows by name: all when n <=
 *  kMaxFeaturesShown + 1 (one left over is shown by name, not as "1 other feature"), else
 *  kMaxFeaturesShown. */
std::size_t FeaturesShown(std::size_t n);

/** @brief "14 other features": the label of the row that sums the features not shown. */
std::string OtherFeaturesLabel(std::size_t n_other);

/**
 * @brief The rows of a bounded beeswarm: one per feature of `order` (most important first) up to
 * FeaturesShown, then, when features are left, one row OtherFeaturesLabel holding per drawn row
 * the sum of their values (one colour). Each row holds the values at `rows` (RowsShown).
 * @param labels the label of each feature (indexed by feature)
 * @param value value(r, j): feature j's value at row r
 * @param colour colour(r, j): the colour value of that point; a row with a non-finite colour
 * value anywhere (a group of columns, a missing cell) is drawn in one colour
 */
std::vector<StripRow> BoundedStripRows(const std::vector<std::size_t>& order,
                                       const std::vector<std::size_t>& rows,
                                       const std::vector<std::string>& labels,
                                       const std::function<double(std::size_t, std::size_t)>& value,
                                       const std::function<double(std::size_t, std::size_t)>& colour);

/**
 * @brief Bounds a waterfall's steps, given in display order (by decreasing |contribution|): the
 * first FeaturesShown stay, the rest become one last step OtherFeaturesLabel with the sum of
 * their contributions (no whisker: their standard errors do not add up to one). Nothing changes
 * for a waterfall within the bound.
 */
void BoundWaterfall(WaterfallChart& chart);

}}}  // namespace perfshap::detail
