// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap shap` and `perfshap treeshap`: Shapley values of a model's predictions for rows of
// --data. The model is an XGBoost JSON file (--model-file) or a learner fitted on --train
// (--model NAME); the approach is interventional (one model, a background sample), retrain
// (the learner retrained on every coalition) or tree (TreeSHAP of a tree model's margins;
// `treeshap` is `shap --approach tree`). Flags -> the model, the explained and background rows
// in the model's feature order -> ExplainInterventional / ExplainByRetraining / ExplainTrees ->
// the shap reporter (report/shap_report.hpp).
#include <algorithm>
#include <charconv>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>

#include "api/model_columns.hpp"
#include "commands.hpp"
#include "embed.hpp"
#include "perfshap/cost_estimates.hpp"
#include "data/message_text.hpp"
#include "perfshap/error.hpp"
#include "perfshap/learner.hpp"
#include "perfshap/random.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/tree_learners.hpp"
#include "perfshap/trees.hpp"
#include "report/shap_report.hpp"

namespace perfshap::cli {

namespace {

struct ShapCliOptions {
  CommonOptions common;
  std::string model_file;
  std::string iteration_range;
  std::string model;
  std::string train;
  std::string approach = "interventional";
  std::string output = "probability";
  std::size_t background = 100;
  std::string background_file;
  std::string rows;
  long long explain_row = -1;
  int trees = 100;
  int max_depth = 0;
  std::vector<std::string> model_params;
  SolverCliOptions solver;
  CLI::Option* trees_option = nullptr;
  CLI::Option* max_depth_option = nullptr;
  CLI::Option* output_option = nullptr;
  CLI::Option* background_option = nullptr;
};

/** --rows I..J (0-based, both included), or every row. */
std::vector<std::size_t> ParseRows(const std::string& text, std::size_t n) {
  std::vector<std::size_t> rows;
  if (text.empty()) {
    rows.resize(n);
    std::iota(rows.begin(), rows.end(), std::size_t{0});
    return rows;
  }
  const auto dots = text.find("..");
  std::size_t first = 0;
  std::size_t last = 0;
  auto number = [](std::string_view s, std::size_t& v) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && p == s.data() + s.size();
  };
  const bool ok = dots == std::string::npos
                      ? number(text, first) && (last = first, true)
                      : number(std::string_view(text).substr(0, dots), first) &&
                            number(std::string_view(text).substr(dots + 2), last);
  if (!ok || first > last)
    throw InvalidArgument("--rows " + text + ": give I..J, the first and last rows to explain (0-based, I <= J)");
  if (last >= n)
    throw InvalidArgument("--rows " + text + " goes past the last row of --data (" + std::to_string(n - 1) + ")");
  for (std::size_t i = first; i <= last; ++i) rows.push_back(i);
  return rows;
}

/** Column-major values of `rows` of the columns `columns` of `d`. */
std::vector<double> Gather(const Dataset& d, std::span<const std::size_t> columns, std::span<const std::size_t> rows) {
  std::vector<double> x(columns.size() * rows.size());
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const auto col = d.column(columns[c]);
    for (std::size_t r = 0; r < rows.size(); ++r) x[c * rows.size() + r] = col[rows[r]];
  }
  return x;
}

/** `count` rows of n drawn without replacement from stream (seed, 11), in increasing order; all
 *  of them when count >= n. */
std::vector<std::size_t> DrawRows(std::size_t n, std::size_t count, std::uint64_t seed) {
  std::vector<std::size_t> all(n);
  std::iota(all.begin(), all.end(), std::size_t{0});
  if (count >= n) return all;
  RandomStream rng(seed, 11);
  for (std::size_t i = 0; i < count; ++i) std::swap(all[i], all[i + rng.Below(n - i)]);
  all.resize(count);
  std::sort(all.begin(), all.end());
  return all;
}

/** How --data is read: its label column, when it has one, is not a feature (the rows to explain
 *  need no label). The file is read once (it may be a pipe): the header says which. */
CsvOptions DataCsv(const CommonOptions& c, bool keep_missing) {
  CsvOptions csv;
  csv.label = c.label;
  csv.label_optional = true;
  csv.allow_no_label = csv.label.empty();
  csv.regression = c.positive.empty();
  csv.positive = c.positive;
  csv.missing = keep_missing && c.missing == "error" ? MissingValues::kKeep : MissingPolicy(c);
  return csv;
}

void RunShap(const ShapCliOptions& o) {
  const CommonOptions& c = o.common;
  if (c.data.empty()) throw InvalidArgument("shap needs --data FILE: the rows to explain");
  PrepareOut(c);
  if (o.model_file.empty() == o.model.empty())
    throw InvalidArgument("give the model: --model-file m.json (an XGBoost model) or --model NAME --train FILE");
  if (!o.model.empty() && o.train.empty())
    throw InvalidArgument("--model " + o.model + " needs --train FILE, the data to fit it on");
  if (!o.model_params.empty() && o.model.empty())
    throw InvalidArgument("--model-param sets an option of the learner fitted with --model NAME --train FILE; an "
                          "XGBoost --model-file is already fitted",
                          {"model_params"});
  if (o.solver.keep_samples) throw InvalidArgument("--keep-samples is not offered by shap; drop it");
  if (o.approach != "interventional" && o.approach != "retrain" && o.approach != "tree")
    throw InvalidArgument("--approach " + o.approach + ": choose interventional, retrain or tree");
  if (o.output != "probability" && o.output != "margin")
    throw InvalidArgument("--output " + o.output + ": choose probability or margin");
  const bool tree = o.approach == "tree";
  if (tree && o.output_option != nullptr && o.output_option->count() > 0 && o.output == "probability")
    throw InvalidArgument(
        "TreeSHAP explains the margin (raw score) of a tree model; for probabilities use --approach interventional");
  if (o.approach == "retrain" && !o.model_file.empty())
    throw InvalidArgument("--approach retrain refits the learner on every coalition: it needs --model NAME --train FILE");
  if (!o.background_file.empty() && o.background_option != nullptr && o.background_option->count() > 0)
    throw InvalidArgument("give either --background N or --background-file FILE, not both");
  if (o.background == 0) throw InvalidArgument("--background must be at least 1 row");

  ShapOptions opt;
  ApplySolverOptions(o.solver, c.seed, opt.solver, opt.solver_options);
  // Exact enumeration runs every coalition for every block of explained rows: at most 20 players
  // (a million coalitions), as xper's default; more take a sampled solver.
  opt.solver_options.max_players = 20;
  opt.solver_options.execution = MakeExecution(c, "coalitions");
  opt.output = o.output == "margin" || tree ? ShapOutputScale::kMargin : ShapOutputScale::kPrediction;

  detail::ShapRun run;
  run.seed = c.seed;
  run.threads = ResolvedThreads(opt.solver_options.execution);
  std::shared_ptr<const Model> model;
  std::shared_ptr<const Learner> learner;
  Dataset explain;             // the explained rows' source, the model's columns
  Dataset background_source;   // where --background rows are drawn from, the model's columns
  std::vector<std::size_t> model_columns;
  std::vector<Player> players;
  std::vector<std::string> feature_names;
  std::vector<Player> retrain_players;      // --train's players, for --approach retrain
  std::shared_ptr<const DesignEncoder> encoder;  // --train's design (text one-hot, --groups)
  std::vector<std::size_t> train_rows_all;  // every row of --train

  const XgboostReadOptions read_options = ModelReadOptions(o.iteration_range, o.model_file);
  if (!o.model_file.empty()) {
    // The host's own model (a Python function), or a tree model (an XGBoost file, a converted one).
    std::shared_ptr<const Model> given = HostModelInput(o.model_file, o.iteration_range);
    if (given != nullptr) {
      if (o.approach != "interventional")
        throw InvalidArgument("--approach " + o.approach + " needs a tree model or a learner; the model " +
                                  o.model_file + " is a function, explained by the interventional approach",
                              {"approach"});
    } else {
      const auto ensemble = ReadModelInput(o.model_file, read_options);
      run.rounds = ensemble->info().rounds;
      given = ensemble;
    }
    model = given;
    const Dataset data = ReadInput(c.data, DataCsv(c, true));
    model_columns = api::ModelColumns(data, *model, o.model_file, "--data " + c.data);
    for (std::size_t col : model_columns) feature_names.push_back(data.feature_names()[col]);
    explain = data;
    background_source = data;
    run.model = model->Describe();
    run.model_source = o.model_file;
    run.data = data.source();
    if (!c.groups.empty())
      throw InvalidArgument("--groups takes the columns of a --train file; an XGBoost model's features are single columns");
  } else {
    // --max-depth and --trees are the tree learners' options (their defaults are the learners'
    // own, so a flag counts only when given); the seed draws a forest's trees.
    LearnerParams params;
    if ((o.model == "tree" || o.model == "forest") && o.max_depth_option->count() > 0)
      params["max_depth"] = std::to_string(o.max_depth);
    if (o.model == "forest") {
      if (o.trees_option->count() > 0) params["n_estimators"] = std::to_string(o.trees);
      params["seed"] = std::to_string(c.seed);
    }
    learner = MakeCommandLearner(o.model, ModelParams(o.model_params, params,
                                               {{"max_depth", "--max-depth"}, {"n_estimators", "--trees"},
                                                {"seed", "--seed"}}));
    if (c.label.empty()) throw InvalidArgument("--train " + o.train + " needs --label COLUMN, its label column");
    CsvOptions csv;
    csv.label = c.label;
    csv.positive = c.positive;
    csv.regression = !learner->is_classifier() || (c.positive.empty() && (o.model == "tree" || o.model == "forest"));
    csv.missing = MissingPolicy(c);
    const Dataset train_raw = ReadInput(o.train, csv);
    CsvOptions data_csv = DataCsv(c, false);
    data_csv.regression = true;
    data_csv.positive.clear();
    const Dataset data_raw = ReadInput(c.data, data_csv);
    std::vector<std::size_t> columns(train_raw.n_features());
    std::iota(columns.begin(), columns.end(), std::size_t{0});
    encoder = std::make_shared<const DesignEncoder>(train_raw, columns, LoadGroups(c), learner->text_columns());
    Design train_design = encoder->Apply(train_raw);
    explain = encoder->Apply(data_raw).data;
    feature_names = encoder->column_names();
    players = encoder->players();
    model_columns.resize(feature_names.size());
    std::iota(model_columns.begin(), model_columns.end(), std::size_t{0});
    std::vector<std::size_t> train_rows(train_design.data.n_rows());
    std::iota(train_rows.begin(), train_rows.end(), std::size_t{0});
    // Trees and forests take any number of classes (the label's distinct values); the other
    // learners, and trees given --positive, a 0/1 label.
    std::vector<double> classes(train_design.data.label().begin(), train_design.data.label().end());
    std::sort(classes.begin(), classes.end());
    classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
    const bool zero_one = classes.size() == 2 && classes[0] == 0.0 && classes[1] == 1.0;
    {
      // Before the fit: the fit's and the explanation's estimates (a request the solver or the
      // memory refuses does not start a fit of thousands of columns).
      ShapShape shape;
      shape.approach = o.approach;
      shape.rows = ParseRows(o.rows, explain.n_rows()).size();
      shape.background = std::min(o.background, train_design.data.n_rows());
      shape.features = model_columns.size();
      shape.players = players.size();
      shape.train_rows = train_rows.size();
      // The explanation's estimate first: it carries the solver's refusal (the exact solver past
      // its limit), which must come before the fit's estimate is said.
      const CostEstimate explanation = tree ? CostEstimate{} : EstimateShapCost(shape, opt);
      CheckCost(EstimateFitCost("shap", *learner, train_rows.size(), model_columns.size()),
                opt.solver_options.execution, kFitRemedy, {"features", "groups"});
      if (!tree) {
        CheckCost(explanation, opt.solver_options.execution, kShapRemedy, {"rows", "background", "solver", "budget"});
        opt.solver_options.execution.on_estimate = nullptr;  // said once
      }
    }
    const bool model_from_learner = !((o.model == "tree" || o.model == "forest") && !zero_one && learner->is_classifier());
    if (!model_from_learner) {
      if (o.approach == "retrain")
        throw InvalidArgument("--approach retrain takes a 0/1 label; name the positive class with --positive");
      // The class-fraction trees of a label with more than two classes take --max-depth,
      // --trees and --seed only: another option would be silently left out.
      if (!o.model_params.empty())
        throw InvalidArgument("--model-param is not applied to a " + o.model + " of " +
                                  "a label with more than two classes (only --max-depth, --trees and --seed are); "
                                  "drop it, or name the positive class with --positive",
                              {"model_params"});
      ForestOptions fo;
      fo.max_depth = o.max_depth;
      fo.seed = c.seed;
      fo.n_estimators = o.trees;
      fo.execution.threads = c.threads;
      if (o.model == "tree") {
        model = FitTree(fo, train_design.data, train_rows, model_columns);
      } else {
        fo.max_features = "sqrt";
        model = FitForest(fo, train_design.data, train_rows, model_columns);
      }
    } else {
      model = learner->Train(train_design.data, train_rows, model_columns);
    }
    background_source = std::move(train_design.data);
    train_rows_all = std::move(train_rows);
    run.model = model->Describe();
    run.model_source = "--model " + o.model + " trained on " + o.train;
    if (model_from_learner) {
      run.learner = learner->name();
      run.learner_params = learner->params();
    }
    run.data = data_raw.source();
    // Players as the encoder grouped them (a one-hot text column, a --groups group); none when
    // every column is its own.
    retrain_players = players;
    bool all_single = true;
    for (const Player& p : players) all_single = all_single && p.columns.size() == 1;
    if (all_single && c.groups.empty()) players.clear();
  }


  const std::vector<std::size_t> rows = ParseRows(o.rows, explain.n_rows());
  run.rows = rows;
  if (o.explain_row >= 0) {
    const auto it = std::find(rows.begin(), rows.end(), static_cast<std::size_t>(o.explain_row));
    if (it == rows.end())
      throw InvalidArgument("--explain-row " + std::to_string(o.explain_row) + " is not among the rows explained (" +
                            std::to_string(rows.front()) + ".." + std::to_string(rows.back()) + ")");
    run.explain_row = static_cast<std::size_t>(it - rows.begin());
  }
  const std::vector<double> x = Gather(explain, model_columns, rows);
  const RowMatrix row_matrix{x, rows.size()};
  // The background: --background-file, or --background rows drawn with the seed.
  std::vector<double> bg;
  const bool wants_background = o.approach == "interventional" ||
                                (tree && (!o.background_file.empty() ||
                                          (o.background_option != nullptr && o.background_option->count() > 0)));
  if (wants_background) {
    if (!o.background_file.empty()) {
      CommonOptions bc = c;
      bc.data = o.background_file;
      const Dataset raw = ReadInput(o.background_file, DataCsv(bc, !o.model_file.empty()));
      if (raw.n_rows() == 0) throw DataError("--background-file " + o.background_file + " has no rows");
      // A --train model's columns are the design's (text one-hot): encode the file the same way.
      const Dataset file = encoder ? encoder->Apply(raw).data : raw;
      std::vector<std::size_t> cols;
      for (const std::string& name : feature_names) {
        const auto& have = file.feature_names();
        const auto it = std::find(have.begin(), have.end(), name);
        if (it == have.end())
          throw DataError("--background-file " + o.background_file + " has no column '" + name +
                          "', a feature of the model; give it the model's feature columns");
        cols.push_back(static_cast<std::size_t>(it - have.begin()));
      }
      std::vector<std::size_t> all(file.n_rows());
      std::iota(all.begin(), all.end(), std::size_t{0});
      bg = Gather(file, cols, all);
      run.background_rows = file.n_rows();
      run.background_source = o.background_file;
    } else {
      const auto drawn = DrawRows(background_source.n_rows(), o.background, c.seed);
      bg = Gather(background_source, model_columns, drawn);
      run.background_rows = drawn.size();
      run.background_source = (o.model_file.empty() ? "drawn from --train " + o.train : "drawn from --data " + c.data) +
                              " with the seed";
    }
  }
  const RowMatrix background{bg, bg.size() / std::max<std::size_t>(model_columns.size(), 1)};

  ShapExplanation e;
  if (tree) {
    const auto* ensemble = dynamic_cast<const TreeEnsemble*>(model.get());
    if (ensemble == nullptr)
      throw InvalidArgument("--approach tree needs a tree model: --model tree|forest or an XGBoost --model-file");
    if (!c.groups.empty()) throw InvalidArgument("TreeSHAP explains single features: drop --groups or use --approach interventional");
    e = ExplainTrees(*ensemble, row_matrix, background, feature_names, opt.solver_options.execution);
  } else if (o.approach == "retrain") {
    e = ExplainByRetraining(*learner, background_source, train_rows_all, explain, rows, retrain_players, opt);
  } else {
    e = ExplainInterventional(*model, row_matrix, background, players, feature_names, opt);
  }
  // The beeswarm's colours: each player's value for the row (single-column players only).
  const std::size_t P = e.n_players;
  run.player_values.assign(rows.size() * P, std::numeric_limits<double>::quiet_NaN());
  if (P == model_columns.size())
    for (std::size_t r = 0; r < rows.size(); ++r)
      for (std::size_t j = 0; j < P; ++j) run.player_values[r * P + j] = x[j * rows.size() + r];
  Say(c, detail::ShapConsoleText(detail::ShapReport{e, run}, c.out));
  auto explanation = std::make_shared<const ShapExplanation>(std::move(e));
  if (Embedding* embedding = CurrentEmbedding()) embedding->shap = explanation;
  Report(c, [explanation, run = std::move(run)](detail::OutputDir& out) {
    detail::WriteShapReport(out, detail::ShapReport{*explanation, run});
  });
}

void Setup(CLI::App& app, bool treeshap) {
  auto o = std::make_shared<ShapCliOptions>();
  if (treeshap) o->approach = "tree";
  AddCommonOptions(app, o->common, 0);
  app.add_option("--model-file", o->model_file, "an XGBoost model saved as JSON (Booster.save_model(\"m.json\"))");
  AddIterationRangeOption(app, o->iteration_range);
  app.add_option("--model", o->model, Join(LearnerNames(), "|") + " fitted on --train");
  app.add_option("--train", o->train, "CSV with the columns of --data and the label: fit --model on it");
  if (!treeshap)
    app.add_option("--approach", o->approach,
                   "interventional (one model, features off the coalition from background rows), retrain (the "
                   "learner refitted on every coalition) or tree (TreeSHAP of a tree model's margin)")
        ->capture_default_str();
  o->output_option = app.add_option("--output", o->output,
                                    "probability (the model's prediction) or margin (log-odds / raw score)")
                         ->capture_default_str();
  o->background_option =
      app.add_option("--background", o->background,
                     treeshap ? "with it, interventional TreeSHAP against N rows drawn with the seed (default: "
                                "path-dependent, by the trees' covers)"
                              : "background rows drawn with the seed from --train (or --data for a --model-file)")
          ->capture_default_str();
  app.add_option("--background-file", o->background_file,
                 "CSV of background rows with the model's feature columns (a label column is ignored)");
  app.add_option("--rows", o->rows, "I..J: explain rows I to J of --data (0-based, both included; default all)");
  app.add_option("--explain-row", o->explain_row, "the row of --data the waterfall shows (default: the first explained)");
  o->trees_option = app.add_option("--trees", o->trees, "--model forest: number of trees")
                        ->capture_default_str()
                        ->check(CLI::Range(1, 100000));
  o->max_depth_option = app.add_option("--max-depth", o->max_depth, "--model tree|forest: largest depth (0 = unlimited)")
                            ->capture_default_str()
                            ->check(CLI::Range(0, 1000));
  AddModelParamOption(app, o->model_params);
  if (!treeshap) {
    AddSolverOptions(app, o->solver, "coalitions per block of explained rows");
    o->solver.solver = "auto";
  }
  app.callback([o] { RunShap(*o); });
}

}  // namespace

void SetupShap(CLI::App& app) { Setup(app, false); }
void SetupTreeShap(CLI::App& app) { Setup(app, true); }

}  // namespace perfshap::cli
