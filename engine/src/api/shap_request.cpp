// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/shap_request.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <span>
#include <utility>

#include "api/model_columns.hpp"
#include "api/run_inputs.hpp"
#include "common/enum_names.hpp"
#include "perfshap/blocks/cost.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/blocks/tree_learners.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/error.hpp"
#include "report/figure_bounds.hpp"
#include "values/value_function.hpp"

namespace perfshap { inline namespace v0 { namespace api {

std::vector<double> Gather(const Dataset& d, std::span<const std::size_t> columns,
                           std::span<const std::size_t> rows) {
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

std::vector<double> BackgroundColumns(const Dataset& file, const std::vector<std::string>& names,
                                      const std::string& source) {
  if (file.n_rows() == 0) throw DataError("the background rows " + source + " have no rows", {"background_file"});
  std::vector<std::size_t> columns;
  for (const std::string& name : names) {
    const auto& have = file.feature_names();
    const auto it = std::find(have.begin(), have.end(), name);
    if (it == have.end())
      throw DataError("the background rows " + source + " have no column '" + name +
                          "', a feature of the model; give them the model's feature columns",
                      {"background_file"});
    columns.push_back(static_cast<std::size_t>(it - have.begin()));
  }
  std::vector<std::size_t> all(file.n_rows());
  std::iota(all.begin(), all.end(), std::size_t{0});
  return Gather(file, columns, all);
}

namespace {

/** How the explained rows (and a background file) are read: their label column, when they have
 *  one, is not a feature (the rows to explain need no label). A file is read once (it may be a
 *  pipe): the header says which. A given model takes missing cells (a tree model's default
 *  directions) unless told otherwise. */
CsvOptions RowsCsv(const DataInput& data, bool keep_missing) {
  CsvOptions csv;
  csv.label = data.label;
  csv.label_optional = true;
  csv.allow_no_label = csv.label.empty();
  csv.regression = data.positive.empty();
  csv.positive = data.positive;
  csv.missing = keep_missing && data.missing == MissingValues::kError ? MissingValues::kKeep : data.missing;
  return csv;
}

/** The rows of the data explained: every row, or [first, last]. */
detail::ShapRun::RowRange ExplainedRows(const std::optional<std::pair<std::size_t, std::size_t>>& range,
                                        std::size_t n, const std::string& data_name) {
  if (!range) return {0, n};
  const auto [first, last] = *range;
  const std::string text = std::to_string(first) + ".." + std::to_string(last);
  if (first > last)
    throw InvalidArgument(
        "the rows " + text + ": give the first and last rows to explain (0-based, first <= last)", {"rows"});
  if (last >= n)
    throw InvalidArgument("the rows " + text + " go past the last row of the data " + data_name + " (" +
                              (n == 0 ? std::string("it has none") : std::to_string(n - 1)) + ")",
                          {"rows"});
  return {first, last - first + 1};
}

/** The indices of a range of rows, for the methods that take a list. */
std::vector<std::size_t> RowList(const detail::ShapRun::RowRange& rows) {
  std::vector<std::size_t> list(rows.size());
  std::iota(list.begin(), list.end(), rows.first);
  return list;
}

constexpr detail::EnumName<ShapApproach> kApproachNames[] = {
    {ShapApproach::kInterventional, "interventional"}, {ShapApproach::kRetrain, "retrain"}, {ShapApproach::kTree, "tree"}};

const char* ApproachName(ShapApproach a) { return detail::NameOf(kApproachNames, a, "interventional"); }

/** The tree learners' options as learner params (a forest's seed from the run's unless given),
 *  each set once. */
LearnerParams TreeParams(const ShapModelInput& m, std::uint64_t seed) {
  LearnerParams params = m.learner.params;
  const std::string& name = m.learner.name;
  const bool trees = name == "tree" || name == "forest";
  const auto set = [&](const std::optional<int>& value, const char* key, const char* option) {
    if (!value) return;
    if (!trees)
      throw InvalidArgument(std::string(option) +
                                " is an option of the tree and forest learners; the learner " +
                                (name.empty() ? std::string("given") : name) + " does not take it: drop it",
                            {option});
    if (params.count(key) != 0)
      throw InvalidArgument(std::string("the learner option ") + key + " is set twice (by " + option +
                                " and by the learner options); give it once",
                            {option, "model_params"});
    params[key] = std::to_string(*value);
  };
  set(m.max_depth, "max_depth", "max_depth");
  if (name == "tree" && m.trees)
    throw InvalidArgument("trees is the number of trees of a forest; a tree learner fits one: drop it",
                          {"trees"});
  set(m.trees, "n_estimators", "trees");
  if (name == "forest" && params.count("seed") == 0) params["seed"] = std::to_string(seed);
  return params;
}

}  // namespace

ShapApproach ParseShapApproach(const std::string& name) {
  if (const auto approach = detail::ValueOf(kApproachNames, name)) return *approach;
  throw InvalidArgument("the approach " + name + ": choose interventional, retrain or tree", {"approach"});
}

ShapConditional ParseShapConditional(const std::string& name) {
  if (name == "marginal") return ShapConditional::kMarginal;
  if (name == "gaussian") return ShapConditional::kGaussian;
  if (name == "copula") return ShapConditional::kCopula;
  if (name == "empirical") return ShapConditional::kEmpirical;
  if (name == "ctree") return ShapConditional::kCtree;
  if (name == "regression") return ShapConditional::kRegression;
  throw InvalidArgument("the conditional value function " + name +
                            ": choose marginal, gaussian, copula, empirical, ctree or regression",
                        {"conditional"});
}

ShapOutputScale ParseShapOutput(const std::string& name) {
  if (name == "probability") return ShapOutputScale::kPrediction;
  if (name == "margin") return ShapOutputScale::kMargin;
  throw InvalidArgument("the output " + name + ": choose probability or margin", {"output"});
}

namespace {

/** A game's interaction values (outputs: rows x model outputs) in TreeShapInteractionValues'
 *  layout: the matrix rows of `features` (none: every feature and the base value's row). */
TreeShapInteractionValues InteractionMatrix(const InteractionValues& iv, std::size_t n_rows, std::size_t K,
                                            const std::vector<std::size_t>& features) {
  const auto F = static_cast<std::size_t>(iv.n_players);
  TreeShapInteractionValues v;
  v.n_rows = n_rows;
  v.n_outputs = K;
  v.n_features = F;
  v.matrix_rows = features;
  if (features.empty())
    for (std::size_t j = 0; j <= F; ++j) v.matrix_rows.push_back(j);
  const std::size_t R = v.matrix_rows.size();
  v.values.assign(n_rows * K * R * (F + 1), 0.0);
  if (!iv.se.empty()) v.se.assign(v.values.size(), 0.0);
  v.base.assign(K, 0.0);
  for (std::size_t k = 0; k < K; ++k) v.base[k] = iv.base.empty() ? 0.0 : iv.base[k];
  for (std::size_t r = 0; r < n_rows; ++r)
    for (std::size_t k = 0; k < K; ++k) {
      const std::size_t o = r * K + k;
      for (std::size_t a = 0; a < R; ++a) {
        const std::size_t i = v.matrix_rows[a];
        const std::size_t at = ((r * K + k) * R + a) * (F + 1);
        if (i == F) {
          v.values[at + F] = iv.base[o];
          continue;
        }
        for (std::size_t j = 0; j < F; ++j) {
          v.values[at + j] = iv(static_cast<int>(i), static_cast<int>(j), o);
          if (!iv.se.empty()) v.se[at + j] = iv.se[(i * F + j) * iv.n_outputs + o];
        }
      }
    }
  return v;
}

/** Refuses what shap does not take before anything is read: the generated design, a model that
 *  is missing or given twice, a learner's options on a given model, and the options that do not
 *  go with the approach. */
void CheckShapOptions(const ShapRequest& request) {
  const DataInput& in = request.data;
  const ShapModelInput& m = request.model;
  const bool given_model = m.given();
  const bool tree = request.approach == ShapApproach::kTree;
  const bool retrain = request.approach == ShapApproach::kRetrain;
  if (in.generated()) throw InvalidArgument("shap needs the rows to explain (data)", {"data"});
  const bool names_learner = !m.learner.name.empty() || m.learner.learner != nullptr;
  if (!given_model && !names_learner)
    throw InvalidArgument(
        "give the model: an XGBoost model (a model file), a tree model or function, or a learner with the "
        "training sample to fit it on",
        {"model_file", "learner", "train"});
  if (given_model && names_learner)
    throw InvalidArgument("the model given is the model: drop the learner " + m.learner.name, {"learner"});
  if (given_model && m.train)
    throw InvalidArgument("the model given is already fitted: drop the training sample (it is for a learner)",
                          {"train"});
  if (!given_model && !m.train)
    throw InvalidArgument("the learner " + (m.learner.name.empty() ? std::string("given") : m.learner.name) +
                              " needs the training sample to fit it on",
                          {"train"});
  if (!m.learner.params.empty() && given_model)
    throw InvalidArgument(
        "learner options set the learner fitted on a training sample; a given model (an XGBoost "
        "file, a tree model, a function) is already fitted",
        {"model_params"});
  if (request.options.solver_options.keep_samples)
    throw InvalidArgument("keeping the samples is not offered by shap; drop it", {"keep_samples"});
  if (tree && request.output == ShapOutputScale::kPrediction)
    throw InvalidArgument(
        "TreeSHAP explains the margin (raw score) of a tree model; for probabilities use the interventional "
        "approach",
        {"output", "approach"});
  if (retrain && given_model)
    throw InvalidArgument(
        "the retrain approach refits the learner on every coalition: it needs a learner and a "
        "training sample",
        {"approach", "model_file"});
  if (request.options.conditional != ShapConditional::kMarginal &&
      request.approach != ShapApproach::kInterventional)
    throw InvalidArgument(std::string("a conditional value function replaces the background's draws of the "
                                      "interventional approach; the ") +
                              ApproachName(request.approach) + " approach has none: drop conditional",
                          {"conditional", "approach"});
  if (request.background_rows && request.background)
    throw InvalidArgument("give either a number of background rows or the background rows, not both",
                          {"background", "background_file"});
  if (request.background && *request.background == 0)
    throw InvalidArgument("the background must be at least 1 row", {"background"});
  if (!given_model && m.iteration_range)
    throw InvalidArgument(
        "iteration_range selects boosting rounds of an XGBoost model; a learner has none: drop it",
        {"iteration_range"});
}

/** The model explained and what it reads: made from the given model or fitted by the learner. */
struct ShapModel {
  std::shared_ptr<const Model> model;
  std::shared_ptr<const Learner> learner;
  Dataset explain;            // the explained rows' source, the model's columns
  Dataset background_source;  // where background rows are drawn from, the model's columns
  std::vector<std::size_t> model_columns;
  std::vector<Player> players;
  std::vector<std::string> feature_names;
  std::vector<Player> retrain_players;           // the training sample's players (retrain)
  std::shared_ptr<const DesignEncoder> encoder;  // the training sample's design (text one-hot, groups)
  std::vector<std::size_t> train_rows_all;       // every row of the training sample
};

/** A given model (the host's function, or a tree model: an XGBoost file or text, a converted
 *  one), its columns found in the data, which is also the background's source; described in run. */
void ResolveGivenModel(const ShapRequest& request, detail::ShapRun& run, ShapModel& s, bool labels = false) {
  const DataInput& in = request.data;
  const ShapModelInput& m = request.model;
  const std::string& name = m.display_name();
  if (m.host_model != nullptr) {
    CheckFunctionModel(m);
    if (request.approach != ShapApproach::kInterventional)
      throw InvalidArgument(std::string("the ") + ApproachName(request.approach) +
                                " approach needs a tree model or a learner; the model " + name +
                                " is a function, explained by the interventional approach",
                            {"approach"});
    s.model = m.host_model;
  } else {
    const std::shared_ptr<const TreeEnsemble> ensemble = LoadTreeModel(m);
    run.rounds = ensemble->info().rounds;
    s.model = ensemble;
  }
  CsvOptions csv = RowsCsv(in, true);
  csv.label_optional = csv.label_optional && !labels;
  const Dataset data = ReadRows(in, csv);
  s.model_columns = ModelColumns(data, *s.model, name, "the data " + in.name());
  for (std::size_t col : s.model_columns) s.feature_names.push_back(data.feature_names()[col]);
  s.explain = data;
  s.background_source = data;
  run.model = s.model->Describe();
  run.model_source = name;
  run.data = data.source();
  if (!in.groups.empty())
    throw InvalidArgument(
        "groups take the columns of a training sample; a given model's features are single "
        "columns",
        {"groups"});
}

/** How a learner's training sample is read: its label column, 0/1 from the positive class for a
 *  classifier, a tree or forest without a positive class keeping its classes. */
CsvOptions TrainCsv(const DataInput& in, const Learner& learner, bool tree_learner) {
  CsvOptions csv;
  csv.label = in.label;
  csv.positive = in.positive;
  csv.regression = !learner.is_classifier() || (in.positive.empty() && tree_learner);
  csv.missing = in.missing;
  return csv;
}

/** Whether the label's distinct values are exactly 0 and 1. */
bool ZeroOneLabel(const Dataset& train) {
  std::vector<double> classes(train.label().begin(), train.label().end());
  std::sort(classes.begin(), classes.end());
  classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  return classes.size() == 2 && classes[0] == 0.0 && classes[1] == 1.0;
}

/** Before the fit: the fit's and the explanation's estimates (a request the solver or the
 *  memory refuses does not start a fit of thousands of columns). */
void CheckFitCost(const ShapRequest& request, ShapOptions& opt, const ShapModel& s, const Dataset& train,
                  std::size_t n_train_rows) {
  ExecutionOptions& execution = opt.solver_options.execution;
  const bool tree = request.approach == ShapApproach::kTree;
  ShapShape shape;
  shape.approach = ApproachName(request.approach);
  shape.rows = ExplainedRows(request.rows, s.explain.n_rows(), request.data.name()).size();
  shape.background = std::min(request.background.value_or(100), train.n_rows());
  shape.features = s.model_columns.size();
  shape.players = s.players.size();
  shape.train_rows = n_train_rows;
  // The explanation's estimate first: it carries the solver's refusal (the exact solver past
  // its limit), which must come before the fit's estimate is said.
  const CostEstimate explanation = tree ? CostEstimate{} : EstimateShapCost(shape, opt);
  CheckCost(EstimateFitCost("shap", *s.learner, n_train_rows, s.model_columns.size()), execution, kFitRemedy,
            {"features", "groups"});
  if (!tree) {
    CheckCost(explanation, execution, kShapRemedy, {"rows", "background", "solver", "budget"});
    execution.on_estimate = nullptr;  // said once
  }
}

/** The class-fraction tree or forest of a tree learner's label with more than two classes. */
std::shared_ptr<const Model> FitClassFractionTrees(const ShapRequest& request,
                                                   const ExecutionOptions& execution, const Dataset& train,
                                                   const std::vector<std::size_t>& train_rows,
                                                   const std::vector<std::size_t>& model_columns) {
  const ShapModelInput& m = request.model;
  if (request.approach == ShapApproach::kRetrain)
    throw InvalidArgument("the retrain approach takes a 0/1 label; name the positive class",
                          {"approach", "positive"});
  // The class-fraction trees of a label with more than two classes take the depth, the
  // number of trees and the seed only: another option would be silently left out.
  if (!m.learner.params.empty())
    throw InvalidArgument(
        "learner options are not applied to a " + m.learner.name +
            " of a label with more than two classes (only max_depth, trees and the seed are); "
            "drop them, or name the positive class",
        {"model_params"});
  ForestOptions fo;
  fo.max_depth = m.max_depth.value_or(0);
  fo.seed = request.seed;
  fo.n_estimators = m.trees.value_or(100);
  fo.execution.threads = execution.threads;
  if (m.learner.name == "tree") return FitTree(fo, train, train_rows, model_columns);
  fo.max_features = "sqrt";
  return FitForest(fo, train, train_rows, model_columns);
}

/** A learner's model: the training sample and the data read and encoded with the sample's
 *  design, the estimated cost checked, the model fitted; described in run. */
void FitLearnerModel(const ShapRequest& request, ShapOptions& opt, detail::ShapRun& run, ShapModel& s,
                     bool labels = false) {
  const DataInput& in = request.data;
  const ShapModelInput& m = request.model;
  const LearnerParams params = TreeParams(m, request.seed);
  LearnerInput learner_input = m.learner;
  if (learner_input.learner == nullptr) learner_input.params = params;
  s.learner = MakeLearnerOf(learner_input);
  const bool tree_learner =
      m.learner.learner == nullptr && (m.learner.name == "tree" || m.learner.name == "forest");
  if (in.label.empty())
    throw InvalidArgument("the training sample " + m.train->name() + " needs the name of its label column",
                          {"label"});
  const CsvOptions csv = TrainCsv(in, *s.learner, tree_learner);
  const Dataset train_raw = ReadRows(*m.train, csv);
  // The data's labels, when read, as the training sample's (0/1 from the positive class).
  CsvOptions data_csv = labels ? csv : RowsCsv(in, false);
  if (!labels) {
    data_csv.regression = true;
    data_csv.positive.clear();
  }
  // The training sample itself as the data (sage's cv, or a model judged on its own training
  // rows): read once, as it is read as the training sample (a pipe cannot be read twice).
  const bool same_input = labels && m.train->path == in.path && m.train->table == in.table;
  const Dataset data_raw = same_input ? train_raw : ReadRows(in, data_csv);
  std::vector<std::size_t> columns(train_raw.n_features());
  std::iota(columns.begin(), columns.end(), std::size_t{0});
  s.encoder = std::make_shared<const DesignEncoder>(train_raw, columns, in.groups, s.learner->text_columns());
  Design train_design = s.encoder->Apply(train_raw);
  s.explain = s.encoder->Apply(data_raw).data;
  s.feature_names = s.encoder->column_names();
  s.players = s.encoder->players();
  s.model_columns.resize(s.feature_names.size());
  std::iota(s.model_columns.begin(), s.model_columns.end(), std::size_t{0});
  std::vector<std::size_t> train_rows(train_design.data.n_rows());
  std::iota(train_rows.begin(), train_rows.end(), std::size_t{0});
  // Trees and forests take any number of classes (the label's distinct values); the other
  // learners, and trees given a positive class, a 0/1 label.
  const bool zero_one = ZeroOneLabel(train_design.data);
  CheckFitCost(request, opt, s, train_design.data, train_rows.size());
  const bool model_from_learner = !(tree_learner && !zero_one && s.learner->is_classifier());
  if (!model_from_learner)
    s.model = FitClassFractionTrees(request, opt.solver_options.execution, train_design.data, train_rows,
                                    s.model_columns);
  else
    s.model = s.learner->Train(train_design.data, train_rows, s.model_columns);
  s.background_source = std::move(train_design.data);
  s.train_rows_all = std::move(train_rows);
  run.model = s.model->Describe();
  run.model_source =
      (s.learner->name().empty() ? m.learner.name : s.learner->name()) + " trained on " + m.train->name();
  if (model_from_learner) {
    run.learner = s.learner->name();
    run.learner_params = s.learner->params();
  }
  run.data = data_raw.source();
  // Players as the encoder grouped them (a one-hot text column, a group); none when every
  // column is its own.
  s.retrain_players = s.players;
  bool all_single = true;
  for (const Player& p : s.players) all_single = all_single && p.columns.size() == 1;
  if (all_single && in.groups.empty()) s.players.clear();
}

/** The background rows given (a table or file), encoded as the training sample when a learner's,
 *  in the model's feature columns found by name. */
std::vector<double> ReadBackgroundRows(const ShapRequest& request, const ShapModel& s, detail::ShapRun& run) {
  const DataInput& in = request.data;
  DataInput source = *request.background_rows;
  source.label = in.label;
  source.positive = in.positive;
  source.missing = in.missing;
  const Dataset raw = ReadRows(source, RowsCsv(source, request.model.given()));
  // A learner's columns are the design's (text one-hot): the rows are encoded the same way.
  const Dataset file = s.encoder ? s.encoder->Apply(raw).data : raw;
  std::vector<double> bg = BackgroundColumns(file, s.feature_names, source.name());
  run.background_rows = file.n_rows();
  run.background_source = source.name();
  return bg;
}

/** The background (column-major, the model's columns): the rows given, or rows drawn with the
 *  seed; none when the approach takes none (TreeSHAP without one is path-dependent). */
std::vector<double> ShapBackground(const ShapRequest& request, const ShapModel& s, detail::ShapRun& run) {
  const bool tree = request.approach == ShapApproach::kTree;
  std::vector<double> bg;
  const bool wants_background = request.approach == ShapApproach::kInterventional ||
                                (tree && (request.background_rows || request.background));
  if (!wants_background) return bg;
  if (request.background_rows) {
    bg = ReadBackgroundRows(request, s, run);
  } else {
    const auto drawn = DrawRows(s.background_source.n_rows(), request.background.value_or(100), request.seed);
    bg = Gather(s.background_source, s.model_columns, drawn);
    run.background_rows = drawn.size();
    run.background_source = "drawn from " +
                            (request.model.given() ? request.data.name() : request.model.train->name()) +
                            " with the seed";
  }
  run.background_given = request.background_rows.has_value() || request.background.has_value();
  return bg;
}

/** The interaction matrix rows asked for: model feature indices (none named: every feature and
 *  the base). */
std::vector<std::size_t> InteractionRows(const std::vector<std::string>& asked,
                                         const std::vector<std::string>& feature_names) {
  std::vector<std::size_t> interaction_rows;
  for (const std::string& name : asked) {
    const auto it = std::find(feature_names.begin(), feature_names.end(), name);
    if (it == feature_names.end()) {
      std::string names;
      for (std::size_t j = 0; j < feature_names.size() && j < 8; ++j)
        names += (j > 0 ? ", " : "") + feature_names[j];
      if (feature_names.size() > 8) names += ", ...";
      throw InvalidArgument("interaction feature '" + name + "' is not one of the model's " +
                                std::to_string(feature_names.size()) + " features (" + names + ")",
                            {"interaction_features"});
    }
    interaction_rows.push_back(static_cast<std::size_t>(it - feature_names.begin()));
  }
  return interaction_rows;
}

/** What the solve reads besides the model: the explained rows (in place from the data's columns,
 *  or gathered into x), the background and the interactions asked for. */
struct ShapSolveInputs {
  detail::ShapRun::RowRange rows;
  bool in_place;
  const std::vector<std::size_t>& row_list;
  const std::vector<double>& x;
  ColumnMatrix row_matrix;
  ColumnMatrix background;
  bool wants_interactions;
  const std::vector<std::size_t>& interaction_rows;
};

/** TreeSHAP of the explained rows, and their interaction values when asked for. */
void SolveTrees(const ShapRequest& request, const ShapModel& s, const ShapSolveInputs& in,
                const ExecutionOptions& execution, ShapResponse& response) {
  const auto* ensemble = dynamic_cast<const TreeEnsemble*>(s.model.get());
  if (ensemble == nullptr)
    throw InvalidArgument(
        "the tree approach needs a tree model: the learner tree or forest, or an XGBoost model",
        {"approach", "learner"});
  if (!request.data.groups.empty())
    throw InvalidArgument(
        "TreeSHAP explains single features: drop the groups or use the interventional approach",
        {"groups", "approach"});
  FeatureColumns columns;
  columns.n_rows = in.rows.size();
  for (std::size_t c = 0; c < s.model_columns.size(); ++c)
    columns.columns.push_back(in.in_place ? s.explain.column(s.model_columns[c]).data()
                                          : in.x.data() + c * in.rows.size());
  response.explanation = ExplainTrees(*ensemble, columns, in.background, s.feature_names, execution);
  if (in.wants_interactions) {
    TreeInteractionOptions io;
    io.features = in.interaction_rows;
    response.interactions = ExplainTreeInteractions(*ensemble, columns, in.background, io, execution);
  }
}

/** The explanation by the approach asked for (and the interaction values when asked for). */
void SolveShap(const ShapRequest& request, const ShapModel& s, const ShapSolveInputs& in,
               const ShapOptions& opt, ShapResponse& response) {
  ShapExplanation& e = response.explanation;
  if (request.approach == ShapApproach::kTree) {
    SolveTrees(request, s, in, opt.solver_options.execution, response);
  } else if (request.approach == ShapApproach::kRetrain) {
    e = ExplainByRetraining(*s.learner, s.background_source, s.train_rows_all, s.explain, in.row_list,
                            s.retrain_players, opt);
  } else {
    e = ExplainInterventional(*s.model, in.row_matrix, in.background, s.players, s.feature_names, opt);
    if (opt.conditional != ShapConditional::kMarginal) {
      response.dependence = detail::DependenceOf(in.background, s.feature_names);
      if (detail::MarginalCostsNoMore(in.background.n_rows, opt.conditional_samples,
                                      e.conditional_distinct_draws)) {
        ShapOptions marginal = opt;
        marginal.conditional = ShapConditional::kMarginal;
        marginal.regression_model = "linear";
        marginal.solver_options.execution.on_estimate = nullptr;
        response.marginal = ExplainInterventional(*s.model, in.row_matrix, in.background, s.players,
                                                  s.feature_names, marginal);
      }
    }
    if (in.wants_interactions) {
      if (!s.players.empty())
        throw InvalidArgument("interaction values take one player per feature: drop the groups",
                              {"interactions", "groups"});
      response.interactions = InteractionMatrix(
          ExplainInterventionalInteractions(*s.model, in.row_matrix, in.background, s.feature_names, opt),
          in.rows.size(), s.model->n_outputs(), in.interaction_rows);
    }
  }
}

/** The beeswarm's colours: each player's value for the rows it shows (single-column players only). */
void SetPlayerValues(const ShapExplanation& e, const detail::ShapRun::RowRange& rows, const ShapModel& s,
                     detail::ShapRun& run) {
  const std::size_t P = e.n_players;
  const std::vector<std::size_t> shown = detail::RowsShown(rows.size());
  run.player_values.assign(shown.size() * P, std::numeric_limits<double>::quiet_NaN());
  if (P == s.model_columns.size())
    for (std::size_t k = 0; k < shown.size(); ++k)
      for (std::size_t j = 0; j < P; ++j)
        run.player_values[k * P + j] = s.explain.column(s.model_columns[j])[rows[shown[k]]];
}

}  // namespace

ShapResponse RunShap(const ShapRequest& request) {
  CheckShapOptions(request);
  const DataInput& in = request.data;
  const ShapModelInput& m = request.model;
  const bool tree = request.approach == ShapApproach::kTree;
  const bool retrain = request.approach == ShapApproach::kRetrain;

  ShapOptions opt = request.options;
  opt.solver_options.max_players = kShapExactPlayerLimit;
  opt.output = request.output.value_or(ShapOutputScale::kPrediction);
  if (tree) opt.output = ShapOutputScale::kMargin;
  ExecutionOptions& execution = opt.solver_options.execution;

  ShapResponse response;
  detail::ShapRun& run = response.run;
  run.seed = request.seed;
  run.threads = ResolvedThreads(execution);
  ShapModel s;
  if (m.given())
    ResolveGivenModel(request, run, s);
  else
    FitLearnerModel(request, opt, run, s);

  const detail::ShapRun::RowRange rows = ExplainedRows(request.rows, s.explain.n_rows(), in.name());
  run.rows = rows;
  if (request.explain_row) {
    if (*request.explain_row < rows.first || *request.explain_row - rows.first >= rows.size())
      throw InvalidArgument("the explained row " + std::to_string(*request.explain_row) +
                                " is not among the rows explained (" + std::to_string(rows.first) + ".." +
                                std::to_string(rows.first + rows.size() - 1) + ")",
                            {"explain_row"});
    run.explain_row = *request.explain_row - rows.first;
  }
  // The explained rows: read in place from the data set's columns by TreeSHAP when they are all of
  // them (a large table is then held once, the caller's), else gathered into one block.
  const bool in_place = tree && rows.size() == s.explain.n_rows();
  const std::vector<std::size_t> row_list = in_place ? std::vector<std::size_t>() : RowList(rows);
  const std::vector<double> x =
      in_place ? std::vector<double>() : Gather(s.explain, s.model_columns, row_list);
  const ColumnMatrix row_matrix{x, rows.size()};
  const std::vector<double> bg = ShapBackground(request, s, run);
  const ColumnMatrix background{bg, bg.size() / std::max<std::size_t>(s.model_columns.size(), 1)};

  // Over the processes of an MPI run: every one read the same, or the job ends here.
  RunInputs(execution)
      .Data(s.explain)
      .GivenModel(*s.model, s.explain, s.model_columns, m.host_model != nullptr)
      .Text("background", std::string(reinterpret_cast<const char*>(bg.data()), bg.size() * sizeof(double)))
      .Agree();
  const bool wants_interactions = request.interactions || !request.interaction_features.empty();
  if (retrain && wants_interactions)
    throw InvalidArgument(
        "interaction values come from the tree or the interventional approach, not retraining",
        {"interactions", "approach"});
  const std::vector<std::size_t> interaction_rows =
      InteractionRows(request.interaction_features, s.feature_names);
  const ShapSolveInputs solve{.rows = rows,
                              .in_place = in_place,
                              .row_list = row_list,
                              .x = x,
                              .row_matrix = row_matrix,
                              .background = background,
                              .wants_interactions = wants_interactions,
                              .interaction_rows = interaction_rows};
  SolveShap(request, s, solve, opt, response);
  SetPlayerValues(response.explanation, rows, s, run);
  return response;
}

PreparedModelRows PrepareModelRows(const ShapRequest& request, ShapOptions& opt, detail::ShapRun& run,
                                   bool labels) {
  CheckShapOptions(request);
  const DataInput& in = request.data;
  if (labels && in.label.empty())
    throw InvalidArgument("the data " + in.name() + " needs the name of its label column", {"label"});
  run.seed = request.seed;
  run.threads = ResolvedThreads(opt.solver_options.execution);
  ShapModel s;
  if (request.model.given())
    ResolveGivenModel(request, run, s, labels);
  else
    FitLearnerModel(request, opt, run, s, labels);
  const detail::ShapRun::RowRange rows = ExplainedRows(request.rows, s.explain.n_rows(), in.name());
  run.rows = rows;
  PreparedModelRows out;
  const std::vector<std::size_t> row_list = RowList(rows);
  out.x = Gather(s.explain, s.model_columns, row_list);
  out.n_rows = rows.size();
  if (labels)
    for (const std::size_t r : row_list) out.labels.push_back(s.explain.label()[r]);
  out.background = ShapBackground(request, s, run);
  RunInputs(opt.solver_options.execution)
      .Data(s.explain)
      .GivenModel(*s.model, s.explain, s.model_columns, request.model.host_model != nullptr)
      .Text("background", std::string(reinterpret_cast<const char*>(out.background.data()),
                                      out.background.size() * sizeof(double)))
      .Agree();
  out.model = s.model;
  out.learner = s.learner;
  out.data = s.explain;
  out.model_columns = s.model_columns;
  out.players = s.players;
  out.feature_names = s.feature_names;
  return out;
}
}}}  // namespace perfshap::api
