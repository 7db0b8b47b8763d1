// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/sampling_report.hpp"

#include <sstream>
#include <vector>

#include "perfshap/blocks/coalition.hpp"
#include "report/csv.hpp"
#include "report/format.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

std::string SolverConsoleText(const SolverSummary& summary) {
  const SolveReport& s = summary.solve;
  const std::size_t n_games = summary.n_games;
  const std::string& games = summary.games;
  std::ostringstream out;
  const std::string over = n_games > 1 ? " over " + std::to_string(n_games) + " " + games : "";
  if (!s.sampled) {
    out << "  solver: " << s.solver << ", " << s.n_evaluations << " " << summary.unit << over << "\n";
    return out.str();
  }
  out << "  solver: " << s.solver << " (sampled), " << s.n_evaluations << " " << summary.unit << over << "; ";
  const std::string ratio = Fmt("%.3g", s.convergence_ratio);
  const std::string tolerance = Fmt("%g", s.sampling.tolerance);
  if (s.stopped_by == StopReason::kExact) {
    out << "every coalition evaluated: exact values\n";
  } else if (s.converged) {
    out << "converged: max se / (max phi - min phi) = " << ratio << " < tolerance " << tolerance << "\n";
  } else if (s.stopped_by == StopReason::kTolerance) {
    out << "did not converge: every " << (n_games > 1 ? games.substr(0, games.size() - 1) : "game")
        << " met its share of the tolerance, but their mean's max se / (max phi - min phi) = " << ratio
        << " is above " << tolerance << "; lower the tolerance\n";
  } else {
    const bool time = s.stopped_by == StopReason::kTime;
    out << "did not converge: stopped by the " << (time ? "time limit" : "budget")
        << " at max se / (max phi - min phi) = " << ratio << " (tolerance " << tolerance << "); raise the "
        << (time ? "time limit" : "budget") << " or the tolerance\n";
  }
  return out.str();
}

void AddSolverJson(Json& result, const SolverSummary& summary) {
  const SolveReport& s = summary.solve;
  result["solver"] = s.solver;
  result["n_coalitions_evaluated"] = s.n_evaluations;
  result["converged"] = s.converged;
  result["stopped_by"] = StopReasonName(s.stopped_by);
  if (s.sampled) {
    result["convergence_ratio"] = s.convergence_ratio;
    result["tolerance"] = s.sampling.tolerance;
    result["budget"] = s.sampling.budget > 0 ? s.sampling.budget : kDefaultSampleBudget;
    result["time_limit"] = s.sampling.time_limit_seconds > 0 ? Json(s.sampling.time_limit_seconds) : Json(nullptr);
  }
}

CsvTable SamplesCsv(std::span<const std::uint64_t> coalitions, std::span<const std::size_t> games,
                    int n_players, std::span<const double> values, const std::string& game_column,
                    const std::string& value_column) {
  const std::size_t words = CoalitionWords(n_players);
  std::vector<std::string> header{"coalition", value_column};
  if (!game_column.empty()) header.insert(header.begin(), game_column);
  CsvTable table(header);
  std::string bits(static_cast<std::size_t>(n_players), '0');
  for (std::size_t c = 0; c < values.size(); ++c) {
    const WideCoalition s{coalitions.subspan(c * words, words)};
    for (int i = 0; i < n_players; ++i) bits[static_cast<std::size_t>(i)] = s.contains(i) ? '1' : '0';
    auto& row = table.Row();
    if (!game_column.empty()) row.Count(games.empty() ? 0 : games[c]);
    row.Text(bits).Number(values[c]);
  }
  return table;
}
}}}  // namespace perfshap::detail
