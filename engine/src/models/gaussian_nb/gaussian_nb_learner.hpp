// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include "models/gaussian_nb/gaussian_nb_rank.hpp"
#include "perfshap/blocks/learner.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief The gnb fitter's RankTest with a chosen RankGaussianNb kernel (every kernel gives the
 *  same ranking; for tests and benchmarks). @throws InvalidArgument for another learner's fitter. */
bool RankGaussianNbTest(CoalitionFitter& fitter, RankedTest& out, RankKernel kernel);

}}}  // namespace perfshap::detail
