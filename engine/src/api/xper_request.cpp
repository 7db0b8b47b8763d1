// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/xper_request.hpp"

#include <algorithm>
#include <numeric>
#include <span>
#include <utility>

#include "api/model_columns.hpp"
#include "api/run_inputs.hpp"
#include "api/shap_request.hpp"
#include "data/message_text.hpp"
#include "perfshap/blocks/cost.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/metric_registry.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/error.hpp"
#include "values/value_function.hpp"

namespace perfshap { inline namespace v0 { namespace api {

namespace {

/** A model the host shares (its own), as the unique model the run owns: forwards every call. */
class SharedModel final : public Model {
 public:
  explicit SharedModel(std::shared_ptr<const Model> model) : model_(std::move(model)) {}
  std::size_t n_features() const override { return model_->n_features(); }
  std::size_t n_outputs() const override { return model_->n_outputs(); }
  bool is_classifier() const override { return model_->is_classifier(); }
  void Predict(std::span<const double> x, std::size_t n_rows, std::span<double> out) const override {
    model_->Predict(x, n_rows, out);
  }
  std::string Describe() const override { return model_->Describe(); }

 private:
  std::shared_ptr<const Model> model_;
};

Link LinkOf(const std::string& kind) {
  if (kind == "probit") return Link::kProbit;
  if (kind == "logistic") return Link::kLogit;
  if (kind == "linear") return Link::kIdentity;
  throw InvalidArgument("the model " + kind + " given by coefficients: use probit, logistic or linear", {"learner"});
}

// The XPER paper's Monte Carlo design, rows 700..999 as the sample (the paper's test part).
Dataset GeneratedSample(std::uint64_t seed) {
  ProbitDesign design;
  design.seed = seed;
  std::vector<std::size_t> rows(300);
  std::iota(rows.begin(), rows.end(), std::size_t{700});
  Dataset d = GenerateProbitDesign(design).SelectRows(rows);
  d.set_source("generated probit design (seed " + std::to_string(seed) + "), rows 700-999");
  return d;
}

/** The sample restricted to the columns `names`, in that order. */
Dataset SelectColumns(const Dataset& d, const std::vector<std::string>& names) {
  std::vector<std::vector<double>> cols;
  for (const auto& name : names) {
    const auto c = d.column(d.FeatureIndex(name));
    cols.emplace_back(c.begin(), c.end());
  }
  Dataset out(names, std::move(cols), std::vector<double>(d.label().begin(), d.label().end()), d.label_name());
  out.set_source(d.source());
  return out;
}

/** Players over `names` (the model's columns, in its order) from the design's players; none
 *  when every column is a player of its own. */
std::vector<Player> PlayersInOrder(const std::vector<Player>& players, const std::vector<std::string>& design_names,
                                   const std::vector<std::string>& names) {
  std::vector<Player> out;
  bool grouped = false;
  for (const Player& p : players) {
    Player q{p.name, {}, p.source_columns};
    for (std::size_t c : p.columns) {
      const auto it = std::find(names.begin(), names.end(), design_names[c]);
      q.columns.push_back(static_cast<std::size_t>(it - names.begin()));
    }
    std::sort(q.columns.begin(), q.columns.end());
    grouped = grouped || q.columns.size() > 1;
    out.push_back(std::move(q));
  }
  if (!grouped) out.clear();
  return out;
}

std::vector<std::size_t> Indices(const Dataset& d, const std::vector<std::string>& names) {
  std::vector<std::size_t> idx;
  for (const auto& name : names) idx.push_back(d.FeatureIndex(name));
  return idx;
}

/** The sample: the data read with its label (as a number without a positive class, so that
 *  XPER's own checks report a label that is not 0/1), or the generated design's rows. */
Dataset ReadSample(const XperRequest& request, bool regression) {
  const DataInput& in = request.data;
  const XperModelInput& m = request.model;
  if (in.generated()) {
    if (regression)
      throw InvalidArgument("the metric " + request.options.metric +
                                " needs data with a real-valued target (a label column); the built-in probit "
                                "design has a 0/1 label",
                            {"data", "label"});
    return GeneratedSample(request.options.seed);
  }
  if (m.coefficients.empty() && !m.train && !m.has_tree_model() && m.host_model == nullptr)
    throw InvalidArgument("the data " + in.name() +
                              " need a model: coefficients (probit, logistic or linear), a learner fitted on "
                              "a training sample, or a model file (XGBoost)",
                          {"coefficients", "train", "model_file"});
  if (in.label.empty())
    throw InvalidArgument("the data " + in.name() + " need the name of their label column (the true target)",
                          {"label"});
  CsvOptions csv;
  csv.label = in.label;
  csv.positive = in.positive;
  csv.regression = regression || in.positive.empty();
  // A tree model takes missing values (its default directions) unless told otherwise.
  csv.missing = m.has_tree_model() && in.missing == MissingValues::kError ? MissingValues::kKeep : in.missing;
  return ReadRows(in, csv);
}

std::vector<std::string> SampleFeatures(const DataInput& in, const Dataset& data) {
  std::vector<std::string> features = in.features.empty() ? data.feature_names() : in.features;
  const auto& all = data.feature_names();
  for (const auto& name : features)
    if (std::find(all.begin(), all.end(), name) == all.end())
      throw InvalidArgument("the feature '" + name + "' is not a column of " + data.source() + " (columns: " +
                                detail::CommaList(all) + ")",
                            {"features"});
  return features;
}

/** The explained model, its samples and players, and what the report says of it. */
struct MadeModel {
  std::unique_ptr<Model> model;
  std::shared_ptr<const Learner> learner;  ///< a learner fitted on the training sample
  Dataset sample;
  Dataset train_sample;
  std::vector<Player> players;
  detail::XperModelInfo info;
};

/** Called before a learner is fitted: its training rows, columns, players and the learner. */
using BeforeFit = std::function<void(std::size_t, std::size_t, std::size_t, const Learner&)>;

// A model given by its coefficients (a file, or the generated design's true probit); `features`
// becomes the model's column order.
std::unique_ptr<Model> CoefficientModel(const XperModelInput& m, const std::string& data_name,
                                        std::vector<std::string>& features, detail::XperModelInfo& info) {
  info.kind = m.learner.name.empty() ? "probit" : m.learner.name;
  if (m.coefficients.empty()) {
    if (info.kind != "probit")
      throw InvalidArgument("the model " + info.kind +
                                " needs coefficients or a training sample; without them the model is the "
                                "generated design's true probit",
                            {"learner", "coefficients", "train"});
    info.names = features;
    info.coefficients = ProbitDesign{}.beta;
  } else {
    const GlmCoefficients file = ReadGlmCoefficients(m.coefficients);
    for (std::size_t t = 0; t < file.names.size(); ++t)
      if (std::find(features.begin(), features.end(), file.names[t]) == features.end())
        throw DataError("the coefficients file " + m.coefficients + " line " + std::to_string(file.lines[t]) +
                            " names '" + file.names[t] + "', which is not a feature of " + data_name +
                            " (features: " + detail::CommaList(features) + ")",
                        {"coefficients"});
    for (const auto& name : features)
      if (std::find(file.names.begin(), file.names.end(), name) == file.names.end())
        throw DataError("feature '" + name + "' of " + data_name + " has no coefficient in the coefficients file " +
                            m.coefficients + "; add a line '" + name +
                            ",VALUE' or choose the model's columns (features)",
                        {"coefficients", "features"});
    info.coefficients_file = m.coefficients;
    info.names = file.names;
    info.coefficients = file.values;
  }
  features = info.names;
  return MakeGlm(LinkOf(info.kind), info.coefficients, info.kind != "linear");
}

MadeModel MakeModel(const XperRequest& request, const Dataset& data, std::vector<std::string>& features,
                    const BeforeFit& before_fit) {
  const XperModelInput& in = request.model;
  const std::vector<FeatureGroup>& groups = request.data.groups;
  MadeModel m;
  const bool fits_learner = !in.has_tree_model() && in.host_model == nullptr && in.coefficients.empty() &&
                            !(!in.train && request.data.generated());
  if (!in.learner.params.empty() && !fits_learner)
    throw InvalidArgument("learner options set the learner fitted on a training sample; an already-fitted model "
                          "(coefficients, a model file, the design's probit) has none",
                          {"model_params"});
  if (in.host_model != nullptr) {
    // The host's own model (a Python function f(X)): the data's columns in order.
    const std::string& name = in.display_name();
    CheckFunctionModel(in);
    if (in.host_model->n_outputs() != 1)
      throw InvalidArgument("the model " + name + " returns " + std::to_string(in.host_model->n_outputs()) +
                                " values a row; XPER decomposes the metric of one score a row (P(y=1) or the "
                                "prediction): return that one column",
                            {"model"});
    if (!groups.empty())
      throw InvalidArgument("groups take a trained or coefficients model's columns, not a function's", {"groups"});
    (void)ModelColumns(data, *in.host_model, name, data.source());  // every column, in order, numbers
    m.sample = data;
    m.model = std::make_unique<SharedModel>(in.host_model);
    m.info.kind = "function";
    m.info.from_coefficients = false;
    m.info.train = name;
    m.info.description = in.host_model->Describe();
    features = data.feature_names();
    return m;
  }
  if (in.has_tree_model()) {
    // A tree model, through the generic predict path: its features by name (or in order).
    const std::shared_ptr<const TreeEnsemble> ensemble = LoadTreeModel(in);
    const std::string& name = in.display_name();
    if (ensemble->n_outputs() != 1)
      throw InvalidArgument("the model file " + name + " has " + std::to_string(ensemble->n_outputs()) +
                                " outputs; XPER decomposes the metric of a binary classifier or a regressor",
                            {"model_file"});
    if (!groups.empty())
      throw InvalidArgument("groups take a trained or coefficients model's columns, not a model file's", {"groups"});
    std::vector<std::string> names;
    for (std::size_t col : ModelColumns(data, *ensemble, name, data.source()))
      names.push_back(data.feature_names()[col]);
    m.sample = SelectColumns(data, names);
    m.model = std::make_unique<TreeEnsemble>(ensemble->trees(), ensemble->info());
    // An XGBoost file, or a tree model a host built (a scikit-learn model from Python).
    m.info.kind = ensemble->info().rule == SplitRule::kLessFloat ? "xgboost" : "tree_model";
    m.info.from_coefficients = false;
    m.info.train = name;
    m.info.description = ensemble->Describe();
    m.info.rounds = ensemble->info().rounds;
    features = names;
    return m;
  }
  if (!in.coefficients.empty() || (!in.train && request.data.generated())) {
    const DesignEncoder encoder(data, Indices(data, features), groups, TextColumns::kOneHot);
    const Design design = encoder.Apply(data);
    std::vector<std::string> names = encoder.column_names();
    m.model = CoefficientModel(in, data.source(), names, m.info);
    m.sample = SelectColumns(design.data, names);
    m.players = PlayersInOrder(encoder.players(), encoder.column_names(), names);
    features = names;
    return m;
  }
  m.learner = MakeLearnerOf(in.learner);
  CsvOptions csv;
  csv.label = request.data.label.empty() ? std::string("y") : request.data.label;
  csv.positive = request.data.positive;
  csv.regression = !m.learner->is_classifier();
  csv.missing = request.data.missing;
  const Dataset train = ReadRows(*in.train, csv);
  std::vector<std::size_t> columns;
  for (const auto& name : features) {
    const auto& names = train.feature_names();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end())
      throw DataError("the training sample " + in.train->name() + " has no column '" + name + "' (a feature of " +
                          data.source() + ")",
                      {"train"});
    columns.push_back(static_cast<std::size_t>(it - names.begin()));
  }
  // The design is fitted on the training sample (its text levels) and applied to both.
  const DesignEncoder encoder(train, columns, groups, m.learner->text_columns());
  Design train_design = encoder.Apply(train);
  std::vector<std::size_t> rows(train.n_rows()), all(train_design.data.n_features());
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  std::iota(all.begin(), all.end(), std::size_t{0});
  if (before_fit) before_fit(rows.size(), all.size(), encoder.players().size(), *m.learner);
  m.model = m.learner->Train(train_design.data, rows, all);
  m.train_sample = std::move(train_design.data);
  m.sample = encoder.Apply(data).data;
  features = encoder.column_names();
  m.players = PlayersInOrder(encoder.players(), features, features);
  m.info.kind = m.learner->name();
  m.info.learner_params = m.learner->params();
  m.info.from_coefficients = false;
  m.info.train = in.train->name();
  m.info.n_train = train.n_rows();
  m.info.description = m.model->Describe();
  return m;
}

/** A conditional value function's background (column-major, the model's columns): the rows
 *  given, or `background` rows of the training sample (else the sample) drawn with the seed, or
 *  all of them; none for the marginal value function. */
std::vector<double> XperBackground(const XperRequest& request, const MadeModel& m, std::string& described) {
  const bool conditional = request.options.conditional != ShapConditional::kMarginal;
  if (!conditional) {
    if (request.background || request.background_rows)
      throw InvalidArgument(
          "the background is a conditional value function's training sample; XPER's marginal value function "
          "takes the sample's own rows: give conditional, or drop the background",
          {"background", "background_file", "conditional"});
    return {};
  }
  if (request.background && request.background_rows)
    throw InvalidArgument("give either a number of background rows or the background rows, not both",
                          {"background", "background_file"});
  const std::vector<std::string>& names = m.sample.feature_names();
  if (request.background_rows) {
    DataInput source = *request.background_rows;
    source.label = request.data.label;
    source.positive = request.data.positive;
    CsvOptions csv;
    csv.label = source.label;
    csv.label_optional = true;
    csv.allow_no_label = csv.label.empty();
    csv.regression = true;
    csv.missing = request.data.missing;
    described = source.name();
    return BackgroundColumns(ReadRows(source, csv), names, source.name());
  }
  const bool train = m.train_sample.n_rows() > 0;
  const Dataset& from = train ? m.train_sample : m.sample;
  const std::string from_name = train ? request.model.train->name() : std::string("the data");
  if (request.background && *request.background == 0)
    throw InvalidArgument("the background must be at least 2 rows", {"background"});
  const std::vector<std::size_t> rows =
      DrawRows(from.n_rows(), request.background.value_or(from.n_rows()), request.options.seed);
  std::vector<std::size_t> columns;
  for (const std::string& name : names) columns.push_back(from.FeatureIndex(name));
  described = rows.size() < from.n_rows() ? "drawn from " + from_name + " with the seed"
                                          : "every row of " + from_name;
  return Gather(from, columns, rows);
}

}  // namespace

const std::vector<std::string>& GlmModelNames() {
  static const std::vector<std::string> names{"probit", "logistic", "linear"};
  return names;
}

detail::XperReport XperResponse::Report() const {
  return detail::XperReport{result,
                            sample,
                            train_result ? &*train_result : nullptr,
                            clusters ? &*clusters : nullptr,
                            refit ? &*refit : nullptr,
                            marginal ? &*marginal : nullptr,
                            dependence ? &*dependence : nullptr,
                            run};
}

XperResponse RunXper(const XperRequest& request) {
  const XperModelInput& in = request.model;
  XperOptions opt = request.options;
  const MetricDefinition& metric = FindMetric(request.options.metric, "xper");
  opt.metric = metric.name;
  const int given = static_cast<int>(!in.coefficients.empty()) + static_cast<int>(in.train.has_value()) +
                    static_cast<int>(in.has_tree_model() || in.host_model != nullptr);
  if (given > 1)
    throw InvalidArgument("give one model: coefficients, a learner with a training sample, or a model file",
                          {"coefficients", "train", "model_file"});
  if ((in.has_tree_model() || in.host_model != nullptr) && !in.learner.name.empty())
    throw InvalidArgument("the model file is the model: drop the learner " + in.learner.name, {"learner"});
  if ((in.has_tree_model() || in.host_model != nullptr) && (request.overfit || request.clusters))
    throw InvalidArgument("overfit and clusters refit the model on a training sample; a model file is explained as "
                          "it is",
                          {"overfit", "clusters"});
  if ((!in.coefficients.empty() || in.train) && in.learner.name.empty() && in.learner.learner == nullptr)
    throw InvalidArgument(in.coefficients.empty()
                              ? "a training sample needs the learner fitted on it (probit, logistic, linear, gnb ...)"
                              : "coefficients need the model they belong to (probit, logistic or linear)",
                          {"learner"});
  const Dataset data = ReadSample(request, metric.regression());
  std::vector<std::string> features = SampleFeatures(request.data, data);
  const bool have_train = in.train.has_value();
  if (request.overfit && !have_train)
    throw InvalidArgument("overfit compares the training and test samples: it needs a learner and a training sample",
                          {"overfit", "train"});

  // The model: coefficients, or a learner fitted on the training sample, after the request's
  // estimate (a fit of thousands of columns is not started for a request the solver or the
  // memory refuses).
  const auto before_fit = [&](std::size_t train_rows, std::size_t columns, std::size_t players, const Learner& learner) {
    XperShape shape;
    shape.rows = data.n_rows();
    shape.columns = columns;
    shape.players = players;
    shape.additive = learner.makes_additive_models();
    const CostEstimate xper = EstimateXperCost(shape, opt);
    CheckCost(EstimateFitCost("xper", learner, train_rows, columns), opt.execution, kFitRemedy, {"features", "groups"});
    CheckCost(xper, opt.execution, XperRemedy(opt), XperRemedyOptions(opt));
    opt.execution.on_estimate = nullptr;  // said once
  };
  MadeModel m = MakeModel(request, data, features, before_fit);
  opt.players = m.players;
  const std::size_t n = m.sample.n_rows();
  if (request.explain_row && *request.explain_row >= n)
    throw InvalidArgument("the explained row " + std::to_string(*request.explain_row) + " is outside 0.." +
                              std::to_string(n - 1) + " (the sample has " + std::to_string(n) + " rows)",
                          {"explain_row"});
  if (!request.permutation_file.empty()) {
    if (opt.comparator != XperComparator::kPermuted)
      throw InvalidArgument("a permutation file needs the permuted comparator (the full comparator uses every pair)",
                            {"permutation", "comparator"});
    opt.permutation = ReadRowPermutation(request.permutation_file, n);
  }
  // Over the processes of an MPI run: every one read the same, or the job ends here.
  RunInputs inputs(opt.execution);
  inputs.Data(m.sample).GivenModel(*m.model, m.sample, {}, in.host_model != nullptr);
  if (have_train) inputs.Data(m.train_sample);
  inputs.Agree();
  std::string background_source;
  const std::vector<double> background = XperBackground(request, m, background_source);
  const ColumnMatrix background_rows{background,
                                     background.size() / std::max<std::size_t>(m.sample.n_features(), 1)};
  XperResponse out;
  out.result = ExplainXper(*m.model, m.sample, opt, background_rows);
  if (opt.conditional != ShapConditional::kMarginal)
    out.dependence = detail::DependenceOf(background_rows, m.sample.feature_names());
  if (opt.conditional != ShapConditional::kMarginal &&
      detail::MarginalCostsNoMore(n, opt.conditional_samples, out.result.conditional_distinct_draws)) {
    XperOptions marginal = opt;
    marginal.conditional = ShapConditional::kMarginal;
    marginal.execution.on_estimate = nullptr;
    out.marginal = ExplainXper(*m.model, m.sample, marginal);
  }

  // The training sample's decomposition, with the same model and options: the overfitting
  // view compares it with the sample's, and the paper clusters the training individuals.
  if (have_train && (request.overfit || request.clusters)) {
    XperOptions train_opt = opt;
    train_opt.permutation.clear();  // a permutation file is the sample's; draw from the seed
    train_opt.execution.on_estimate = nullptr;
    out.train_result = ExplainXper(*m.model, m.train_sample, train_opt, background_rows);
  }
  // Heterogeneity (paper, three-step approach): K-medoids on the training individuals' XPER
  // values, one model per cluster, test rows placed by the nearest training medoid. Without a
  // training sample, the sample at hand is clustered and profiled (nothing to refit).
  if (request.clusters) {
    XperClusterOptions co;
    co.clusters = *request.clusters;
    co.execution.threads = opt.execution.threads;
    out.clusters = ClusterXper(have_train ? *out.train_result : out.result, have_train ? m.train_sample : m.sample, co);
    if (have_train)
      out.refit = RefitPerCluster(*m.learner, m.train_sample, *out.clusters, *m.model, m.sample, out.result,
                                  opt.threshold);
  }

  detail::XperRun& run = out.run;
  run.model = m.info;
  run.data = data.source();
  run.metric = request.options.metric;
  run.threshold = opt.threshold;
  run.cfp = opt.cfp;
  run.cfn = opt.cfn;
  run.permutation = request.permutation_file.empty() ? "drawn from the seed" : request.permutation_file;
  run.train_permutation = "drawn from the seed";
  run.fixed_clusters = "fixed by the caller";
  run.explain_row = request.explain_row;
  run.overfit = request.overfit;
  run.have_train = have_train;
  run.seed = opt.seed;
  run.missing = MissingValuesName(request.data.missing);
  run.dropped_rows = data.dropped_rows();
  run.groups = request.data.groups_source;
  run.background = background_source;
  out.sample = m.sample.Owned();  // the response outlives the call: no column lent by the caller
  return out;
}

}}}  // namespace perfshap::api
