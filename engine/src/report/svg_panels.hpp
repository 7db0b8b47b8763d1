// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Several charts of svg.hpp side by side in one SVG document (a grid of nested <svg>
// elements), e.g. the Monte Carlo histograms of the AUC, phi_0 and each phi_j.

#include <string>
#include <vector>

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief Lays out complete SVG documents (as RenderSvg returns them) in a grid of `columns`
 * columns, row by row, under an optional title. Each cell is as wide as the widest panel of
 * its column and as tall as the tallest of its row.
 * @throws InvalidArgument for no panel, columns < 1, or a panel without a root <svg> element
 *   with numeric width and height attributes.
 */
std::string ComposeSvgPanels(const std::vector<std::string>& panels, int columns, const std::string& title = "");

}}}  // namespace perfshap::detail
