// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "explain/conditional_groups.hpp"

#include <cmath>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

ShapExplanation AverageConditionalGroups(const ShapExplanation& grouped, std::size_t groups) {
  PERFSHAP_CHECK(groups >= 2 && grouped.n_outputs % groups == 0, "AverageConditionalGroups: the groups");
  const std::size_t R = grouped.n_rows;
  const std::size_t K = grouped.n_outputs / groups;
  const std::size_t P = grouped.n_players;
  const auto G = static_cast<double>(groups);
  ShapExplanation e;
  e.players = grouped.players;
  e.n_rows = R;
  e.n_outputs = K;
  e.n_players = P;
  e.solve = grouped.solve;
  e.phi.assign(R * K * P, 0.0);
  e.phi_se.assign(R * K * P, 0.0);
  e.base.assign(R * K, 0.0);
  e.prediction.assign(R * K, 0.0);
  const bool sampled = !grouped.phi_se.empty();
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t o = 0; o < K; ++o) {
      const std::size_t at = r * K + o;
      for (std::size_t g = 0; g < groups; ++g) {
        e.base[at] += grouped.base[r * K * groups + o * groups + g] / G;
        e.prediction[at] += grouped.prediction[r * K * groups + o * groups + g] / G;
      }
      for (std::size_t j = 0; j < P; ++j) {
        double mean = 0.0, solver_se = 0.0;
        for (std::size_t g = 0; g < groups; ++g) {
          mean += grouped(r, o * groups + g, j) / G;
          if (sampled) solver_se += grouped.phi_se[(r * K * groups + o * groups + g) * P + j] / G;
        }
        double ss = 0.0;
        for (std::size_t g = 0; g < groups; ++g) {
          const double d = grouped(r, o * groups + g, j) - mean;
          ss += d * d;
        }
        const double mc_var = ss / (G - 1.0) / G;
        e.phi[at * P + j] = mean;
        e.phi_se[at * P + j] = std::sqrt(mc_var + solver_se * solver_se);
      }
    }
  return e;
}

InteractionValues AverageInteractionGroups(const InteractionValues& grouped, std::size_t groups) {
  PERFSHAP_CHECK(groups >= 2 && grouped.n_outputs % groups == 0, "AverageInteractionGroups: the groups");
  const std::size_t O = grouped.n_outputs / groups;
  const std::size_t cells =
      static_cast<std::size_t>(grouped.n_players) * static_cast<std::size_t>(grouped.n_players);
  const auto G = static_cast<double>(groups);
  InteractionValues v;
  v.index = grouped.index;
  v.n_players = grouped.n_players;
  v.n_outputs = O;
  v.players = grouped.players;
  v.n_evaluations = grouped.n_evaluations;
  v.converged = grouped.converged;
  v.values.assign(cells * O, 0.0);
  v.se.assign(cells * O, 0.0);
  v.base.assign(O, 0.0);
  v.full.assign(O, 0.0);
  const bool sampled = !grouped.se.empty();
  for (std::size_t o = 0; o < O; ++o)
    for (std::size_t g = 0; g < groups; ++g) {
      v.base[o] += grouped.base[o * groups + g] / G;
      v.full[o] += grouped.full[o * groups + g] / G;
    }
  for (std::size_t c = 0; c < cells; ++c)
    for (std::size_t o = 0; o < O; ++o) {
      const double* x = grouped.values.data() + c * grouped.n_outputs + o * groups;
      double mean = 0.0, solver_se = 0.0;
      for (std::size_t g = 0; g < groups; ++g) {
        mean += x[g] / G;
        if (sampled) solver_se += grouped.se[c * grouped.n_outputs + o * groups + g] / G;
      }
      double ss = 0.0;
      for (std::size_t g = 0; g < groups; ++g) ss += (x[g] - mean) * (x[g] - mean);
      v.values[c * O + o] = mean;
      v.se[c * O + o] = std::sqrt(ss / (G - 1.0) / G + solver_se * solver_se);
    }
  return v;
}
}}}  // namespace perfshap::detail
