// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// perfshap_sampled_accuracy: the sampled solvers' error against exact values at equal budgets,
// on stored coalition-value tables (so that a peer, bench/peer_kernelshap_numpy.py, solves the
// very same game), and the tables themselves:
//
//   perfshap_sampled_accuracy tables DATA.csv DIR   writes DIR/{robustness16,xper12}.f64 (2^n
//       little-endian doubles, v(S) at row = bit mask of S) and DIR/tables.json (n, exact phi)
//   perfshap_sampled_accuracy run DIR SEEDS BUDGET... prints one JSON line per game, solver and
//       budget: mean squared error over the seeds (vs the exact values), mean reported se^2,
//       the share of 95% intervals covering the exact value ("kernel" with its control
//       variate, "kernel_plain" without);
//   perfshap_sampled_accuracy implicit N BUDGET SEEDS THREADS  the kernel solver's normal matrix
//       formed and left implicit at equal budgets on the synthetic game: MSE, mean se^2, coverage;
//   perfshap_sampled_accuracy synthetic N TOLERANCE THREADS  solves a game of N players with
//       values known in closed form (below) with each solver to the tolerance, timed: one JSON
//       line each with the evaluations, seconds, the share within 3 se of the truth, the RMSE.
//
// The games: the robustness game of the first 16 features of breast_cancer (logistic, one
// stratified holdout split, v = AUC - 0.5), and the XPER AUC game of its first 12 features
// (logistic trained on the holdout's training rows, XPER on the test rows, full comparator).
// The synthetic game: v(S) = sum_{i in S} a_i + sum over pairs {i, i+1} (even i < N/5) held by S
// of d_i + sum over triples {i, i+1, i+2} (i = N/5, N/5 + 3, ... < N/2) held by S of e_i, whose
// Shapley values are a_i plus each term's dividend shared equally by its players.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/xper.hpp"
#include "solvers/sampling.hpp"

namespace {

using perfshap::Coalition;

// A game read from a table of v(S), one output.
class TableGame final : public perfshap::Game {
 public:
  TableGame(int n, std::vector<double> values) : n_(n), values_(std::move(values)) {}
  int n_players() const override { return n_; }
  std::size_t n_outputs() const override { return 1; }
  std::unique_ptr<perfshap::GameWorker> MakeWorker() const override { return std::make_unique<Worker>(*this); }

 private:
  class Worker final : public perfshap::GameWorker {
   public:
    explicit Worker(const TableGame& g) : g_(g) {}
    void Evaluate(Coalition s, std::span<double> out) override { out[0] = g_.values_[s]; }

   private:
    const TableGame& g_;
  };
  int n_;
  std::vector<double> values_;
};

// The synthetic game of the header: additive terms, disjoint pairs and triples.
class SyntheticGame final : public perfshap::Game {
 public:
  explicit SyntheticGame(int n) : n_(n), a_(static_cast<std::size_t>(n)) {
    std::uint64_t state = 2024;
    auto normal = [&] {  // a sum of 12 uniforms, minus 6
      double sum = 0.0;
      for (int k = 0; k < 12; ++k) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        sum += static_cast<double>(state >> 11) / 9007199254740992.0;
      }
      return sum - 6.0;
    };
    for (double& a : a_) a = 0.1 * normal();
    for (int i = 0; i + 1 < n / 5; i += 2) terms_.push_back({{i, i + 1}, normal()});
    for (int i = n / 5; i + 2 < n / 2; i += 3) terms_.push_back({{i, i + 1, i + 2}, normal()});
  }
  int n_players() const override { return n_; }
  std::size_t n_outputs() const override { return 1; }
  std::unique_ptr<perfshap::GameWorker> MakeWorker() const override { return std::make_unique<Worker>(*this); }
  std::vector<double> Shapley() const {
    std::vector<double> phi = a_;
    for (const Term& t : terms_)
      for (int i : t.players) phi[static_cast<std::size_t>(i)] += t.d / static_cast<double>(t.players.size());
    return phi;
  }

 private:
  struct Term {
    std::vector<int> players;
    double d;
  };
  class Worker final : public perfshap::GameWorker {
   public:
    explicit Worker(const SyntheticGame& g) : g_(g) {}
    void Evaluate(Coalition s, std::span<double> out) override {
      const std::uint64_t words[1] = {s};
      EvaluateWide(perfshap::WideCoalition{words}, out);
    }
    void EvaluateWide(perfshap::WideCoalition s, std::span<double> out) override {
      double v = 0.0;
      for (int i = 0; i < g_.n_; ++i)
        if (s.contains(i)) v += g_.a_[static_cast<std::size_t>(i)];
      for (const Term& t : g_.terms_) {
        bool all = true;
        for (int i : t.players) all = all && s.contains(i);
        if (all) v += t.d;
      }
      out[0] = v;
    }

   private:
    const SyntheticGame& g_;
  };
  int n_;
  std::vector<double> a_;
  std::vector<Term> terms_;
};

int Synthetic(int n, double tolerance, int threads) {
  const SyntheticGame game(n);
  const std::vector<double> truth = game.Shapley();
  // Past 128 players the kernel solver has no control variate: "kernel_plain" would repeat it.
  for (const char* solver : {"permutation", "kernel", "kernel_plain"}) {
    if (n > 128 && std::string(solver) == "kernel_plain") continue;
    perfshap::SolverOptions o;
    o.budget = 50'000'000;
    o.tolerance = tolerance;
    o.seed = 1;
    o.execution.threads = threads;
    o.control_variate = std::string(solver) == "kernel";
    const auto start = std::chrono::steady_clock::now();
    const perfshap::ShapleyValues v =
        perfshap::MakeSolver(std::string(solver) == "kernel_plain" ? "kernel" : solver, o)->Solve(game);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double sq = 0.0;
    std::size_t within = 0;
    for (std::size_t i = 0; i < truth.size(); ++i) {
      const double err = v.phi[i] - truth[i];
      sq += err * err;
      // Players the antithetic pairs get exactly (additive ones, pairs) have se 0: rounding.
      within += std::abs(err) <= 3.0 * v.phi_se[i] + 1e-12 ? 1 : 0;
    }
    nlohmann::json line = {{"game", "synthetic" + std::to_string(n)},
                           {"solver", solver},
                           {"tolerance", tolerance},
                           {"threads", threads},
                           {"evaluations", v.n_evaluations},
                           {"converged", v.converged},
                           {"convergence_ratio", v.convergence_ratio},
                           {"seconds", seconds},
                           {"within_3se", static_cast<double>(within) / static_cast<double>(n)},
                           {"rmse", std::sqrt(sq / static_cast<double>(n))}};
    std::cout << line.dump() << "\n" << std::flush;
  }
  return 0;
}

// The kernel solver's two solves of its least squares at equal budgets on the synthetic game of
// n players: the normal matrix formed and factored (as below 128 players) and left implicit
// (conjugate gradients; the default above 128), each over `seeds` seeds: one JSON line each
// with the mean squared error, the mean se^2, the 95% coverage and the seconds.
int Implicit(int n, std::uint64_t budget, int seeds, int threads) {
  const SyntheticGame game(n);
  const std::vector<double> truth = game.Shapley();
  for (const bool implicit : {false, true}) {
    double sq = 0.0, se2 = 0.0, seconds = 0.0;
    std::size_t covered = 0;
    for (int seed = 1; seed <= seeds; ++seed) {
      perfshap::SolverOptions o;
      o.budget = budget;
      o.tolerance = 1e-9;  // the whole budget
      o.seed = static_cast<std::uint64_t>(seed);
      o.execution.threads = threads;
      o.control_variate = false;
      const auto start = std::chrono::steady_clock::now();
      const perfshap::ShapleyValues v =
          perfshap::detail::MakeKernelSolverWithImplicitNormal(o, implicit ? 1 : 100000)->Solve(game);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      for (std::size_t i = 0; i < truth.size(); ++i) {
        const double err = v.phi[i] - truth[i];
        sq += err * err;
        se2 += v.phi_se[i] * v.phi_se[i];
        covered += std::abs(err) <= 1.96 * v.phi_se[i] + 1e-12 ? 1 : 0;
      }
    }
    const double cells = static_cast<double>(seeds) * static_cast<double>(n);
    nlohmann::json line = {{"game", "synthetic" + std::to_string(n)},
                           {"normal_matrix", implicit ? "implicit" : "formed"},
                           {"budget", budget},
                           {"seeds", seeds},
                           {"mse", sq / cells},
                           {"mean_se2", se2 / cells},
                           {"coverage95", static_cast<double>(covered) / cells},
                           {"seconds_per_solve", seconds / seeds}};
    std::cout << line.dump() << "\n" << std::flush;
  }
  return 0;
}

void WriteTable(const std::string& path, const std::vector<double>& v) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(double)));
  if (!f) throw perfshap::Error("cannot write " + path);
}

std::vector<double> ReadTable(const std::string& path, int n) {
  std::vector<double> v(std::size_t{1} << n);
  std::ifstream f(path, std::ios::binary);
  f.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(double)));
  if (!f) throw perfshap::Error("cannot read " + path + " (run `tables` first)");
  return v;
}

std::vector<double> ExactPhi(const perfshap::Game& game) {
  perfshap::SolverOptions o;
  const perfshap::ShapleyValues v = perfshap::MakeSolver("exact", o)->Solve(game);
  return v.phi;
}

int Tables(const std::string& csv, const std::string& dir) {
  perfshap::CsvOptions csv_options;
  csv_options.label = "label";
  const perfshap::Dataset data = perfshap::ReadCsv(csv, csv_options);
  const perfshap::Split split = perfshap::HoldoutSplit(data.n_rows(), 0.2, 0, data.label());
  nlohmann::json meta;

  // Robustness: the AUC of every coalition of the first 16 features.
  perfshap::RobustnessOptions ro;
  ro.learner = perfshap::MakeLearner("logistic");
  for (std::size_t c = 0; c < 16; ++c) ro.features.push_back(c);
  ro.execution.threads = 0;
  const perfshap::RobustnessResult rr = perfshap::ExplainRobustness(data, {split}, ro);
  std::vector<double> robust(rr.coalition_auc.size());
  for (std::size_t s = 0; s < robust.size(); ++s) robust[s] = rr.coalition_auc[s] - 0.5;
  WriteTable(dir + "/robustness16.f64", robust);
  meta["robustness16"] = {{"n", 16}, {"phi", ExactPhi(TableGame(16, robust))}, {"phi_auc", rr.phi_auc_mean}};

  // XPER: AUC of a logistic model on the first 12 features, on the test rows.
  std::vector<std::size_t> columns;
  for (std::size_t c = 0; c < 12; ++c) columns.push_back(c);
  const auto model = perfshap::Train("logistic", data, split.train, columns);
  std::vector<std::string> names;
  std::vector<std::vector<double>> cols;
  std::vector<double> label;
  for (std::size_t c : columns) {
    names.push_back(data.feature_names()[c]);
    std::vector<double> col;
    for (std::size_t r : split.test) col.push_back(data.column(c)[r]);
    cols.push_back(std::move(col));
  }
  for (std::size_t r : split.test) label.push_back(data.label()[r]);
  const perfshap::Dataset sample(names, cols, label);
  perfshap::XperOptions xo;
  xo.comparator = perfshap::XperComparator::kFull;
  xo.store_coalition_values = true;
  const perfshap::XperResult xr = perfshap::ExplainXper(*model, sample, xo);
  const std::size_t width = sample.n_rows() + 1;
  std::vector<double> xper(std::size_t{1} << 12);
  for (std::size_t s = 0; s < xper.size(); ++s) xper[s] = xr.coalition_values[s * width];
  WriteTable(dir + "/xper12.f64", xper);
  meta["xper12"] = {{"n", 12}, {"phi", ExactPhi(TableGame(12, xper))}, {"phi_xper", xr.phi}};
  std::ofstream(dir + "/tables.json") << meta.dump(1) << "\n";
  return 0;
}

int Run(const std::string& dir, int seeds, const std::vector<std::uint64_t>& budgets) {
  nlohmann::json meta;
  std::ifstream(dir + "/tables.json") >> meta;
  for (const char* name : {"robustness16", "xper12"}) {
    const int n = meta[name]["n"].get<int>();
    const std::vector<double> exact = meta[name]["phi"].get<std::vector<double>>();
    const TableGame game(n, ReadTable(dir + "/" + name + ".f64", n));
    for (const std::string solver : {"permutation", "kernel", "kernel_plain"}) {
      for (std::uint64_t budget : budgets) {
        double mse = 0.0, se2 = 0.0;
        std::size_t covered = 0, count = 0;
        for (int seed = 0; seed < seeds; ++seed) {
          perfshap::SolverOptions o;
          o.budget = budget;
          o.tolerance = 1e-9;  // run to the budget
          o.seed = static_cast<std::uint64_t>(seed);
          o.control_variate = solver == "kernel";
          const perfshap::ShapleyValues v =
              perfshap::MakeSolver(solver == "kernel_plain" ? "kernel" : solver, o)->Solve(game);
          for (int j = 0; j < n; ++j) {
            const double err = v.phi[static_cast<std::size_t>(j)] - exact[static_cast<std::size_t>(j)];
            const double se = v.phi_se[static_cast<std::size_t>(j)];
            mse += err * err;
            se2 += se * se;
            covered += std::abs(err) <= 1.959963984540054 * se ? 1 : 0;
            ++count;
          }
        }
        nlohmann::json line = {{"game", name},
                               {"solver", solver},
                               {"budget", budget},
                               {"seeds", seeds},
                               {"mse", mse / static_cast<double>(count)},
                               {"mean_se2", se2 / static_cast<double>(count)},
                               {"coverage", static_cast<double>(covered) / static_cast<double>(count)}};
        std::cout << line.dump() << "\n";
      }
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 3 && args[0] == "tables") return Tables(args[1], args[2]);
    if (args.size() >= 4 && args[0] == "run") {
      std::vector<std::uint64_t> budgets;
      for (std::size_t i = 3; i < args.size(); ++i) budgets.push_back(std::stoull(args[i]));
      return Run(args[1], std::stoi(args[2]), budgets);
    }
    if (args.size() == 4 && args[0] == "synthetic") return Synthetic(std::stoi(args[1]), std::stod(args[2]), std::stoi(args[3]));
    if (args.size() == 5 && args[0] == "implicit")
      return Implicit(std::stoi(args[1]), std::stoull(args[2]), std::stoi(args[3]), std::stoi(args[4]));
    std::cerr << "usage: perfshap_sampled_accuracy tables DATA.csv DIR | run DIR SEEDS BUDGET... | synthetic N "
                 "TOLERANCE THREADS | implicit N BUDGET SEEDS THREADS\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "perfshap_sampled_accuracy: error: " << e.what() << "\n";
    return 1;
  }
}
