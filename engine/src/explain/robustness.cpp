// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// ExplainRobustness, end to end: the checks that name the culprit before any training, one
// RetrainGame per split, the games solved together by the chosen solver (one task graph: a
// split is prepared while earlier splits' coalitions run, and each split's values reach the
// bands as it completes, in split order), then the Eq. (12) check and the section 4.4
// selection.
#include "perfshap/robustness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "explain/finite_result.hpp"
#include "explain/players.hpp"
#include "explain/robustness_splits.hpp"
#include "explain/solver_choice.hpp"
#include "games/retrain_game.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/error.hpp"
#include "perfshap/processes.hpp"
#include "perfshap/blocks/interactions.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/blocks/welford.hpp"
#include "schedule/checkpoint.hpp"
#include "schedule/distribute.hpp"
#include "schedule/schedule.hpp"
#include "solvers/solve_across.hpp"

namespace perfshap { inline namespace v0 {

namespace {

std::string Str(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Mean and std (ddof 0) of one scalar over the splits, in split order.
std::pair<double, double> Band(const std::vector<double>& x) {
  WelfordBands band(1);
  for (double v : x) band.Add(std::span<const double>(&v, 1));
  return {band.mean()[0], band.StdDev(0)[0]};
}

// The options the learner can honour, and the registered extra metrics.
std::vector<const MetricDefinition*> CheckOptions(const RobustnessOptions& options, const Learner& learner) {
  PERFSHAP_CHECK(options.grid_points >= 2,
                 "a curve grid of " + std::to_string(options.grid_points) +
                     " points is too small; a grid needs at least the points 0 and 1",
                 {"grid_points"});
  PERFSHAP_CHECK(std::isfinite(options.class_threshold),
                 "the class threshold must be a finite number, got " + Str(options.class_threshold),
                 {"class_threshold"});
  if (!learner.is_classifier() && options.curves.mode == CurveMode::kThresholds)
    throw InvalidArgument("the curve mode " + CurvePointsName(options.curves) + " needs probabilities, and the " +
                              learner.name() + " learner's predictions are not; use the exact curve mode",
                          {"curves"});
  std::vector<const MetricDefinition*> metrics;
  for (const std::string& name : options.extra_metrics) {
    const MetricDefinition& m = FindMetric(name, "robustness");
    if (!learner.is_classifier() && m.input == MetricInput::kProbability)
      throw InvalidArgument("metric " + m.name + " needs probabilities, and the " + learner.name() +
                                " learner's predictions are not; use mse or r2",
                            {"extra_metrics"});
    metrics.push_back(&m);
  }
  return metrics;
}

// Data checks that name the culprit before any training: a 0/1 label, no constant player.
void CheckData(const Dataset& data, std::span<const Player> players) {
  const std::string& source = data.source();
  const auto label = data.label();
  if (label.size() != data.n_rows())
    throw DataError(source + ": the data has no label column; robustness needs a 0/1 label", {"label"});
  for (std::size_t r = 0; r < label.size(); ++r)
    if (label[r] != 0.0 && label[r] != 1.0)
      throw DataError(source + ": label '" + data.label_name() + "' of data row " + std::to_string(r) + " is " +
                          Str(label[r]) + ", but the AUC needs a 0/1 label; name the positive class",
                      {"positive"});
  for (const Player& player : players) {
    bool constant = true;
    double value = 0.0;
    for (std::size_t c : player.columns) {
      const auto col = data.column(c);
      for (std::size_t r = 1; r < col.size() && constant; ++r) constant = col[r] == col[0];
      if (!constant || col.empty() || std::isnan(col[0])) {
        constant = false;
        break;
      }
      value = col[0];
    }
    if (constant)
      throw DataError(source + ": feature '" + player.name + "' is constant (all " + std::to_string(data.n_rows()) +
                          " values are " + Str(value) + "); it cannot change any model: drop the column",
                      {"features"});
  }
}

// The curves: both grids from DefaultCurveGrid(mode, grid_points) unless given.
CurveGridOptions CurveOptions(const RobustnessOptions& options) {
  CurveGridOptions curve_options = options.curves;
  curve_options.auprc = AuprcDefinition::kTrapezoid;
  if (curve_options.fpr_grid.empty()) curve_options.fpr_grid = DefaultCurveGrid(curve_options.mode, options.grid_points);
  if (curve_options.recall_grid.empty())
    curve_options.recall_grid = DefaultCurveGrid(curve_options.mode, options.grid_points);
  return curve_options;
}

/**
 * The band stage (section 4.2): each split's values, as the solver hands them over in split
 * order, go into Welford bands of phi of every output, of the full model's raw values (AUC, tpr
 * at the FPR grid, precision at the recall grid, AUPRC, metrics), of the extra metrics' base
 * values and of the grid trapezoids of the ShapROC / ShapPRC curves; then they are dropped.
 */
class RobustnessBands {
 public:
  RobustnessBands(const detail::RetrainGame& game, std::size_t n_players, std::size_t n_extra,
                  std::span<const double> baselines)
      : p_(n_players),
        k_(game.n_outputs()),
        n_extra_(n_extra),
        curve_outputs_(game.curve_outputs()),
        prc_at_(game.prc_offset()),
        auprc_at_(game.auprc_offset()),
        fpr_(game.settings().evaluator->fpr_grid()),
        recall_(game.settings().evaluator->recall_grid()),
        baselines_(baselines),
        phi_(p_ * k_),
        se2_(p_ * k_, 0.0),
        full_(k_),
        base_(n_extra),
        integrated_(2 * p_),
        raw_(k_),
        raw_base_(n_extra),
        integral_(2 * p_) {}

  void Add(std::size_t r, const ShapleyValues& sv, RobustnessResult& result) {
    phi_.Add(sv.phi);
    ++n_;
    if (!sv.phi_se.empty())
      for (std::size_t t = 0; t < se2_.size(); ++t) se2_[t] += sv.phi_se[t] * sv.phi_se[t];
    raw_[0] = sv.full[0] + 0.5;
    for (std::size_t j = 0; j < fpr_.size(); ++j) raw_[1 + j] = sv.full[1 + j] + fpr_[j];
    for (std::size_t j = 0; j < recall_.size(); ++j) raw_[prc_at_ + j] = sv.full[prc_at_ + j] + baselines_[r];
    raw_[auprc_at_] = sv.full[auprc_at_] + baselines_[r];
    for (std::size_t e = 0; e < n_extra_; ++e) {
      raw_[curve_outputs_ + e] = sv.full[curve_outputs_ + e];
      raw_base_[e] = sv.base[curve_outputs_ + e];
    }
    full_.Add(raw_);
    if (n_extra_ > 0) base_.Add(raw_base_);
    // The grid trapezoid of each player's ShapROC and ShapPRC curve (what the authors' ShapROC
    // / ShapPRC scripts integrate, eqs. 9 and 12): players' ROC integrals, then PRC ones.
    const std::span<const double> phi(sv.phi);
    for (std::size_t i = 0; i < p_; ++i) {
      integral_[i] = GridTrapezoid(fpr_, phi.subspan(i * k_ + 1, fpr_.size()));
      integral_[p_ + i] = GridTrapezoid(recall_, phi.subspan(i * k_ + prc_at_, recall_.size()));
    }
    integrated_.Add(integral_);
    result.auc_by_split[r] = raw_[0];
    for (std::size_t i = 0; i < p_; ++i) {
      result.phi_auc_by_split[r * p_ + i] = sv(static_cast<int>(i), 0);
      result.phi_auc_se_by_split[r * p_ + i] = sv.phi_se.empty() ? 0.0 : sv.phi_se[i * k_];
    }
  }

  void Write(RobustnessResult& result, std::span<const std::string> metric_names) const {
    const std::vector<double>& phi_mean = phi_.mean();
    const std::vector<double> phi_std = phi_.StdDev(0);
    // The sampling standard error of a mean over independent splits: sqrt(sum se_r^2) / R.
    std::vector<double> phi_se(se2_.size());
    for (std::size_t t = 0; t < se2_.size(); ++t) phi_se[t] = std::sqrt(se2_[t]) / static_cast<double>(n_);
    const std::vector<double>& full_mean = full_.mean();
    const std::vector<double> full_std = full_.StdDev(0);
    const std::size_t n_fpr = fpr_.size();
    const std::size_t n_rec = recall_.size();
    result.auc_mean = full_mean[0];
    result.auc_std = full_std[0];
    result.auprc_mean = full_mean[auprc_at_];
    result.auprc_std = full_std[auprc_at_];
    result.fpr_grid.assign(fpr_.begin(), fpr_.end());
    result.recall_grid.assign(recall_.begin(), recall_.end());
    result.tpr_mean.assign(full_mean.begin() + 1, full_mean.begin() + 1 + static_cast<std::ptrdiff_t>(n_fpr));
    result.tpr_std.assign(full_std.begin() + 1, full_std.begin() + 1 + static_cast<std::ptrdiff_t>(n_fpr));
    const auto prc_begin = static_cast<std::ptrdiff_t>(prc_at_);
    const auto prc_end = static_cast<std::ptrdiff_t>(prc_at_ + n_rec);
    result.precision_mean.assign(full_mean.begin() + prc_begin, full_mean.begin() + prc_end);
    result.precision_std.assign(full_std.begin() + prc_begin, full_std.begin() + prc_end);
    for (auto* v : {&result.phi_auc_mean, &result.phi_auc_std, &result.phi_auc_se, &result.phi_auprc_mean,
                    &result.phi_auprc_std, &result.phi_auprc_se})
      v->resize(p_);
    for (auto* v : {&result.shap_roc_mean, &result.shap_roc_std, &result.shap_roc_se}) v->resize(p_ * n_fpr);
    for (auto* v : {&result.shap_prc_mean, &result.shap_prc_std, &result.shap_prc_se}) v->resize(p_ * n_rec);
    for (std::size_t i = 0; i < p_; ++i) {
      const std::size_t row = i * k_;
      result.phi_auc_mean[i] = phi_mean[row];
      result.phi_auc_std[i] = phi_std[row];
      result.phi_auc_se[i] = phi_se[row];
      result.phi_auprc_mean[i] = phi_mean[row + auprc_at_];
      result.phi_auprc_std[i] = phi_std[row + auprc_at_];
      result.phi_auprc_se[i] = phi_se[row + auprc_at_];
      for (std::size_t j = 0; j < n_fpr; ++j) {
        result.shap_roc_mean[i * n_fpr + j] = phi_mean[row + 1 + j];
        result.shap_roc_std[i * n_fpr + j] = phi_std[row + 1 + j];
        result.shap_roc_se[i * n_fpr + j] = phi_se[row + 1 + j];
      }
      for (std::size_t j = 0; j < n_rec; ++j) {
        result.shap_prc_mean[i * n_rec + j] = phi_mean[row + prc_at_ + j];
        result.shap_prc_std[i * n_rec + j] = phi_std[row + prc_at_ + j];
        result.shap_prc_se[i * n_rec + j] = phi_se[row + prc_at_ + j];
      }
    }
    const std::vector<double>& integrated_mean = integrated_.mean();
    const std::vector<double> integrated_std = integrated_.StdDev(0);
    const auto n_players = static_cast<std::ptrdiff_t>(p_);
    result.shap_roc_integrated_mean.assign(integrated_mean.begin(), integrated_mean.begin() + n_players);
    result.shap_roc_integrated_std.assign(integrated_std.begin(), integrated_std.begin() + n_players);
    result.shap_prc_integrated_mean.assign(integrated_mean.begin() + n_players, integrated_mean.end());
    result.shap_prc_integrated_std.assign(integrated_std.begin() + n_players, integrated_std.end());
    const std::vector<double> base_mean = n_extra_ > 0 ? base_.mean() : std::vector<double>{};
    const std::vector<double> base_std = n_extra_ > 0 ? base_.StdDev(0) : std::vector<double>{};
    for (std::size_t e = 0; e < n_extra_; ++e) {
      RobustnessMetricResult m;
      m.metric = metric_names[e];
      m.value_mean = full_mean[curve_outputs_ + e];
      m.value_std = full_std[curve_outputs_ + e];
      m.base_mean = base_mean[e];
      m.base_std = base_std[e];
      for (std::size_t i = 0; i < p_; ++i) {
        m.phi_mean.push_back(phi_mean[i * k_ + curve_outputs_ + e]);
        m.phi_std.push_back(phi_std[i * k_ + curve_outputs_ + e]);
        m.phi_se.push_back(phi_se[i * k_ + curve_outputs_ + e]);
      }
      result.metrics.push_back(std::move(m));
    }
  }

 private:
  std::size_t p_, k_, n_extra_, curve_outputs_, prc_at_, auprc_at_;
  std::span<const double> fpr_, recall_, baselines_;
  WelfordBands phi_;
  std::vector<double> se2_;  // sum over the splits of se^2, per output
  std::size_t n_ = 0;
  WelfordBands full_, base_, integrated_;
  std::vector<double> raw_, raw_base_, integral_;
};

// Eq. (12): phi_i^AUC ~ sum_k (f_k - f_{k-1}) (phi_i^{ROC,f_k} + phi_i^{ROC,f_{k-1}}) / 2, the
// trapezoid integral of player i's ShapROC curve (the paper prints the sum with a minus sign in
// its last line; its derivation, eq. (9), has the plus).
void WriteEq12(RobustnessResult& result) {
  const std::size_t p = result.features.size();
  const std::size_t n_fpr = result.fpr_grid.size();
  result.eq12_integral.resize(p);
  result.eq12_difference.resize(p);
  for (std::size_t i = 0; i < p; ++i) {
    double integral = 0.0;
    const double* curve = result.shap_roc_mean.data() + i * n_fpr;
    for (std::size_t j = 1; j < n_fpr; ++j)
      integral += (result.fpr_grid[j] - result.fpr_grid[j - 1]) * (curve[j] + curve[j - 1]) / 2.0;
    result.eq12_integral[i] = integral;
    result.eq12_difference[i] = result.phi_auc_mean[i] - integral;
    result.eq12_gap = std::max(result.eq12_gap, std::abs(result.eq12_difference[i]));
  }
}

// Section 4.4: flag the players whose contribution is negative or whose band includes 0; with
// `retrain`, retrain without them on the same splits (cold starts, so the retrained models do
// not depend on the main pass; each split drawn and prepared again, as the main pass let it
// go). Returns the number of trainings it took.
std::uint64_t Select(RobustnessResult& result, const detail::SplitGameSetup& setup, std::span<const double> baselines,
                     bool retrain, const ExecutionOptions& execution) {
  RobustnessSelection& sel = result.selection;
  const std::size_t p = result.features.size();
  for (std::size_t i = 0; i < p; ++i) {
    const double m = result.phi_auc_mean[i];
    if (m < 0.0 || std::abs(m) <= result.phi_auc_std[i]) sel.removed.push_back(i);
    else sel.kept.push_back(i);
  }
  std::tie(sel.auc_before_mean, sel.auc_before_std) = std::pair{result.auc_mean, result.auc_std};
  std::tie(sel.auprc_before_mean, sel.auprc_before_std) = std::pair{result.auprc_mean, result.auprc_std};
  sel.auc_after_mean = sel.auc_before_mean;
  sel.auc_after_std = sel.auc_before_std;
  sel.auprc_after_mean = sel.auprc_before_mean;
  sel.auprc_after_std = sel.auprc_before_std;
  if (!retrain || sel.removed.empty()) return 0;
  std::vector<std::uint64_t> kept(CoalitionWords(static_cast<int>(p)), 0);
  for (std::size_t i : sel.kept) kept[i / 64] |= std::uint64_t{1} << (i % 64);
  const std::size_t n_splits = setup.splits.size();
  std::vector<double> auc_after(n_splits), auprc_after(n_splits);
  const auto retrain_splits = [&](detail::ItemRange share) {
    detail::Schedule schedule(execution);
    schedule.ForEachBlock(share.end - share.begin, 0, [&](std::size_t b) {
      const std::size_t r = share.begin + b;
      // The same game without the coalition sink: the main pass's values stay as they were.
      Split drawn;
      const Split& rows = setup.splits.At(r, drawn);
      const std::unique_ptr<detail::RetrainGame> game = detail::MakeSplitGame(setup, r, rows, baselines[r], {});
      auto worker = game->MakeWorker();
      worker->Reset();
      std::vector<double> out(game->n_outputs());
      worker->EvaluateWide(WideCoalition{kept}, out);
      auc_after[r] = out[0] + 0.5;
      auprc_after[r] = out[game->auprc_offset()] + baselines[r];
    });
  };
  if (const std::shared_ptr<const Processes> group = detail::SharedProcesses(execution); group == nullptr) {
    retrain_splits({0, n_splits});
  } else {
    // Over the processes of an MPI run: each retrains its share of the splits.
    detail::RunShared(
        *group, n_splits,
        [&](detail::ItemRange share, const std::function<detail::ByteWriter&(std::size_t)>& write) {
          retrain_splits(share);
          for (std::size_t r = share.begin; r < share.end; ++r) {
            write(r).Put(auc_after[r]);
            write(r).Put(auprc_after[r]);
          }
        },
        [&](std::size_t r, detail::ByteReader& in) {
          auc_after[r] = in.Get<double>();
          auprc_after[r] = in.Get<double>();
        });
  }
  std::tie(sel.auc_after_mean, sel.auc_after_std) = Band(auc_after);
  std::tie(sel.auprc_after_mean, sel.auprc_after_std) = Band(auprc_after);
  sel.retrained = true;
  return sel.kept.empty() ? 0 : n_splits;
}

}  // namespace

PrcBaseline ParsePrcBaseline(const std::string& text) {
  if (text == "0.5" || text == "half" || text == ".5" || text == "0.50") return PrcBaseline::kHalf;
  if (text == "prevalence") return PrcBaseline::kPrevalence;
  throw InvalidArgument("the precision baseline '" + text + "' is not understood; use 0.5 (the paper) or prevalence",
                        {"prc_baseline"});
}

const char* PrcBaselineName(PrcBaseline baseline) noexcept {
  return baseline == PrcBaseline::kPrevalence ? "prevalence" : "0.5";
}

namespace {

/** The last guard of the result path (explain/finite_result.hpp): every reported value finite. */
void RequireFiniteResult(const RobustnessResult& r) {
  const std::size_t p = r.features.size();
  const auto player = [&](std::size_t i) {
    return "feature '" + r.features[i % std::max<std::size_t>(p, 1)] + "'";
  };
  const auto split_player = [&](std::size_t t) {
    return "split " + std::to_string(t / std::max<std::size_t>(p, 1)) + ", " + player(t);
  };
  const auto point = [](std::size_t g) { return "grid point " + std::to_string(g); };
  detail::RequireFinite("robustness", "the mean AUC", r.auc_mean);
  detail::RequireFinite("robustness", "the mean AUPRC", r.auprc_mean);
  detail::RequireFinite("robustness", "the AUC of a split", r.auc_by_split,
                        [](std::size_t s) { return "split " + std::to_string(s); });
  detail::RequireFinite("robustness", "phi of the AUC", r.phi_auc_mean, player);
  detail::RequireFinite("robustness", "phi of the AUC of a split", r.phi_auc_by_split, split_player);
  detail::RequireFinite("robustness", "phi of the AUPRC", r.phi_auprc_mean, player);
  detail::RequireFinite("robustness", "the mean TPR", r.tpr_mean, point);
  detail::RequireFinite("robustness", "the mean precision", r.precision_mean, point);
  const std::size_t g_roc = std::max<std::size_t>(r.fpr_grid.size(), 1);
  const std::size_t g_prc = std::max<std::size_t>(r.recall_grid.size(), 1);
  detail::RequireFinite("robustness", "ShapROC", r.shap_roc_mean,
                        [&](std::size_t t) { return player(t / g_roc) + ", " + point(t % g_roc); });
  detail::RequireFinite("robustness", "ShapPRC", r.shap_prc_mean,
                        [&](std::size_t t) { return player(t / g_prc) + ", " + point(t % g_prc); });
  for (const RobustnessMetricResult& m : r.metrics) {
    detail::RequireFinite("robustness", "the mean " + m.metric, m.value_mean);
    detail::RequireFinite("robustness", "the " + m.metric + " of no feature", m.base_mean);
    detail::RequireFinite("robustness", "phi of the " + m.metric, m.phi_mean, player);
  }
}

}  // namespace

namespace {

/** What a checkpoint of this run must have been made from: the values of the data, the splits,
 *  the players, the learner, the solver and everything the games' values depend on. */
std::string RunFingerprint(const Dataset& data, const detail::SplitSequence& splits, std::span<const Player> players,
                           const RobustnessOptions& options, const std::string& solver, const CurveGridEvaluator& evaluator) {
  detail::ByteWriter w;
  w.PutString(options.checkpoint_fingerprint);
  w.Put<std::uint64_t>(data.n_rows());
  for (std::size_t c = 0; c < data.n_features(); ++c) w.PutSpan(std::span<const double>(data.column(c)));
  w.PutSpan(std::span<const double>(data.label()));
  splits.Fingerprint(w);
  for (const Player& player : players) {
    w.PutString(player.name);
    w.PutVector(player.columns);
  }
  w.PutString(options.learner->name());
  for (const auto& [key, value] : options.learner->params()) {
    w.PutString(key);
    w.PutString(value);
  }
  w.PutString(solver);
  w.Put(options.sampling.budget);
  w.Put(options.sampling.tolerance);
  w.Put(options.sampling.time_limit_seconds);
  w.Put(options.sampling.seed);
  w.Put(options.sampling.keep_samples);
  w.Put(options.sampling.control_variate);
  w.PutSpan(evaluator.fpr_grid());
  w.PutSpan(evaluator.recall_grid());
  w.Put(evaluator.options().mode);
  w.Put(evaluator.options().strategy);
  w.Put(evaluator.options().thresholds);
  w.Put(options.prc_baseline);
  w.PutStrings(options.extra_metrics);
  w.Put(options.class_threshold);
  w.Put(options.interactions);
  return detail::Fingerprint(w.bytes());
}

// Split r's values as the solver hands them over, in split order: into the bands, the per-split
// arrays, the interactions, the solve report and the kept samples. Returns its trainings.
std::uint64_t TakeSplitValues(std::size_t r, ShapleyValues&& sv, const RobustnessOptions& options, bool no_metrics,
                              RobustnessBands& bands, RobustnessResult& result) {
  const std::size_t p = result.features.size();
  bands.Add(r, sv, result);
  if (options.interactions) {
    // Output 0 is AUC - 0.5: the constant cancels in every difference.
    const InteractionValues iv = InteractionsOfValues(sv, InteractionIndex::kShapley, options.execution);
    for (std::size_t e = 0; e < p * p; ++e)
      result.interaction_auc_by_split[r * p * p + e] = iv.values[e * iv.n_outputs];
  }
  SolveReport& solve = result.solve;
  if (r == 0 && !sv.solver.empty()) solve.solver = sv.solver;
  solve.n_evaluations += sv.n_evaluations;
  if (!sv.converged && solve.converged) solve.stopped_by = sv.stopped_by;
  solve.converged = solve.converged && sv.converged;
  if (solve.converged) solve.stopped_by = sv.stopped_by;
  if (options.sampling.keep_samples && !sv.sample_values.empty()) {
    const std::size_t k = sv.n_outputs;
    result.sample_coalitions.insert(result.sample_coalitions.end(), sv.sample_coalitions.begin(),
                                    sv.sample_coalitions.end());
    for (std::size_t t = 0; t < sv.sample_values.size(); t += k) {
      result.sample_split.push_back(r);
      result.sample_auc.push_back(sv.sample_values[t] + 0.5);
    }
  }
  // Every coalition evaluated is a training, but the empty one without extra metrics (the
  // random classifier).
  return sv.n_evaluations - (no_metrics ? 1 : 0);
}

// The splits solved `window` at a time (detail::SplitWindow): each window's games made
// (MakeSplitGames), solved by the processes of the run (SolveBatchAcross in the batch's game
// numbers: bitwise the values of one batch), each split's values taken as they come and its
// prepared split let go, then the window's games dropped. Returns the trainings.
std::uint64_t SolveSplits(const detail::SplitGameSetup& setup, const detail::SolverChoice& choice,
                          const SolverOptions& solver_options, std::size_t window, std::vector<double>& baselines,
                          RobustnessResult& result) {
  const RobustnessOptions& options = setup.options;
  const std::size_t n_splits = setup.splits.size();
  const bool windowed = window < n_splits;
  const auto t0 = std::chrono::steady_clock::now();
  const std::shared_ptr<const Processes> group = detail::SharedProcesses(options.execution);
  std::optional<detail::Checkpoint> checkpoint;
  if (!options.checkpoint.empty())
    checkpoint.emplace(options.checkpoint,
                       RunFingerprint(setup.data, setup.splits, setup.players, options, choice.name, setup.evaluator),
                       n_splits, group.get());
  // Over the processes of an MPI run, each split's coalition AUCs travel with its values.
  const std::size_t split_coalitions = result.coalition_auc.size() / n_splits;
  const auto coalition_auc_of = [&](std::size_t r) {
    return std::span<double>(result.coalition_auc).subspan(r * split_coalitions, split_coalitions);
  };
  detail::WindowedProgress progress(windowed ? options.execution.progress : ProgressCallback{}, n_splits);
  std::optional<RobustnessBands> bands;
  std::vector<Split> drawn;
  std::uint64_t trainings = 0;
  for (std::size_t first = 0; first < n_splits; first += window) {
    const detail::ItemRange range{first, std::min(n_splits, first + window)};
    const std::vector<std::unique_ptr<detail::RetrainGame>> games =
        detail::MakeSplitGames(setup, range, drawn, baselines, result.coalition_auc);
    if (!bands) {
      bands.emplace(*games[0], setup.players.size(), setup.metrics.size(), baselines);
      result.features = games[0]->player_names();
    }
    std::vector<const Game*> game_ptrs;
    for (const auto& g : games) game_ptrs.push_back(g.get());
    const detail::SolverMaker make_solver = [&](std::uint64_t first_game, std::shared_ptr<const Processes> processes) {
      SolverOptions share_options = solver_options;
      share_options.first_game = first_game;
      share_options.execution.processes = std::move(processes);
      if (windowed) {
        share_options.execution.progress = progress.For(range, range.end == n_splits);
        // The time limit is the run's: a window has what the ones before it left.
        if (share_options.time_limit_seconds > 0.0)
          share_options.time_limit_seconds = std::max(
              1e-9, share_options.time_limit_seconds -
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      }
      return choice.Make(share_options);
    };
    detail::SolveBatchAcross(
        group, game_ptrs, make_solver,
        [&](std::size_t r, ShapleyValues&& sv) {
          trainings += TakeSplitValues(r, std::move(sv), options, setup.metrics.empty(), *bands, result);
          games[r - range.begin]->ReleaseSplit();  // the selection prepares it again
        },
        result.coalition_auc.empty() ? std::function<std::span<double>(std::size_t)>{} : coalition_auc_of,
        checkpoint ? &*checkpoint : nullptr, range.begin);
    progress.EndWindow();
  }
  bands->Write(result, options.extra_metrics);
  return trainings;
}

}  // namespace

RobustnessResult ExplainRobustness(const Dataset& data, const SplitPlan& plan, const RobustnessOptions& options) {
  return detail::ExplainRobustness(data, detail::SplitSequence(plan), options);
}

namespace detail {

RobustnessResult ExplainRobustness(const Dataset& data, const SplitSequence& splits, const RobustnessOptions& options,
                                   std::size_t window) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string& source = data.source();
  PERFSHAP_CHECK(splits.size() > 0, "ExplainRobustness: the split plan is empty; give at least one train/test split");
  PERFSHAP_CHECK(options.learner != nullptr, "ExplainRobustness: no learner");
  const Learner& learner = *options.learner;
  const std::vector<const MetricDefinition*> metrics = CheckOptions(options, learner);
  const std::vector<Player> players = ResolvePlayers(data, options.features, options.players);
  const std::size_t p = players.size();
  PERFSHAP_CHECK(p >= 1, source + " has no feature column to explain", {"features"});
  const std::size_t n_splits = splits.size();
  SolverOptions solver_options;
  const SolverChoice choice = RobustnessSolver(source, p, options, solver_options);
  const bool exact = choice.exact;
  PERFSHAP_CHECK(exact || (options.sampling.tolerance > 0.0 && options.sampling.tolerance < 1.0),
                 "the tolerance must lie in (0, 1) (the largest standard error as a share of the range of the "
                 "values, e.g. 0.01), got " + std::to_string(options.sampling.tolerance),
                 {"tolerance"});
  // The result is the splits' mean, whose sampling error is the splits' over sqrt(R): each split
  // is solved to 0.8 t sqrt(R) (the mean's range is a little below the largest split's), and the
  // run has converged when the mean's own ratio is below t (checked below).
  if (!exact && n_splits > 1)
    solver_options.tolerance =
        std::min(0.5, options.sampling.tolerance * 0.8 * std::sqrt(static_cast<double>(n_splits)));
  CheckData(data, players);
  if (options.interactions) {
    PERFSHAP_CHECK(exact, "interactions are computed from the exact solve's coalition values: use the exact solver",
                   {"interactions", "solver"});
    PERFSHAP_CHECK(static_cast<int>(p) <= kExactInteractionLimit,
                   "interactions of " + std::to_string(p) + " players: at most " +
                       std::to_string(kExactInteractionLimit) + " (select or group features)",
                   {"interactions", "features"});
    solver_options.store_values = true;
  }
  {
    RobustnessShape shape;
    shape.source = source;
    shape.rows = data.n_rows();
    shape.columns = 0;
    for (const Player& player : players) shape.columns += player.columns.size();
    shape.players = p;
    shape.splits = n_splits;
    shape.drawn = splits.drawn();
    shape.test_rows = splits.max_test_rows();
    CheckCost(EstimateRobustnessCost(shape, options), options.execution, kRobustnessRemedy,
              {"plan", "solver", "budget", "features"});
  }

  const CurveGridEvaluator evaluator(CurveOptions(options));
  RobustnessResult result;
  // AUC of every coalition of every split, while that stays small (exact solving only).
  if (exact && p <= 22 && (std::uint64_t{1} << p) * n_splits <= (std::uint64_t{1} << 22))
    result.coalition_auc.assign((std::size_t{1} << p) * n_splits, 0.5);
  result.phi_auc_by_split.resize(n_splits * p);
  result.phi_auc_se_by_split.resize(n_splits * p);
  result.auc_by_split.resize(n_splits);
  if (options.interactions) result.interaction_auc_by_split.assign(n_splits * p * p, 0.0);
  SolveReport& solve = result.solve;
  solve.solver = choice.name;
  solve.sampled = !exact;
  solve.sampling = options.sampling;
  std::vector<double> baselines(n_splits, 0.5);
  const SplitGameSetup setup{data, splits, players, learner, evaluator, metrics, options};
  if (window == 0) window = SplitWindow(splits.drawn(), n_splits, data.n_rows());
  std::uint64_t trainings = SolveSplits(setup, choice, solver_options, window, baselines, result);

  result.players = players;
  result.learner = learner.name();
  result.learner_params = learner.params();
  result.curves = evaluator.options();
  result.prc_baseline = options.prc_baseline;
  result.n_splits = n_splits;
  result.prc_baseline_mean = Band(baselines).first;
  if (options.interactions) {
    result.interaction_auc_mean.resize(p * p);
    result.interaction_auc_std.resize(p * p);
    std::vector<double> across(n_splits);
    for (std::size_t e = 0; e < p * p; ++e) {
      for (std::size_t r = 0; r < n_splits; ++r) across[r] = result.interaction_auc_by_split[r * p * p + e];
      std::tie(result.interaction_auc_mean[e], result.interaction_auc_std[e]) = Band(across);
    }
  }
  if (!exact) {
    // The convergence ratio of what is reported: the mean phi^AUC and its standard errors.
    const auto [lo, hi] = std::minmax_element(result.phi_auc_mean.begin(), result.phi_auc_mean.end());
    const double range = *hi - *lo;
    const double se = *std::max_element(result.phi_auc_se.begin(), result.phi_auc_se.end());
    solve.convergence_ratio = range > 0.0 ? se / range : (se > 0.0 ? std::numeric_limits<double>::infinity() : 0.0);
    if (solve.converged && solve.stopped_by != StopReason::kExact &&
        !(solve.convergence_ratio < options.sampling.tolerance))
      solve.converged = false;
  }
  WriteEq12(result);
  RequireFiniteResult(result);
  trainings += Select(result, setup, baselines, options.select, options.execution);
  result.n_trainings = trainings;
  result.threads = ResolvedThreads(options.execution);
  result.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace detail

}}  // namespace perfshap
