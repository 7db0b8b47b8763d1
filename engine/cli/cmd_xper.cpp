// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap xper`: XPER decomposition of a model's performance metric over its features,
// globally and for every individual of the sample. The model is given by its coefficients
// (--model probit|logistic|linear --coef FILE) or fitted on a training file (--model M
// --train FILE); with no --data, the XPER paper's probit design is generated. --overfit adds the
// training sample's decomposition, --clusters the paper's heterogeneity analysis (k-medoids on
// individual XPER values, one model refitted per cluster); SVG figures go next to result.json.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "perfshap/cluster.hpp"
#include "perfshap/error.hpp"
#include "perfshap/generators.hpp"
#include "perfshap/learner.hpp"
#include "perfshap/model.hpp"
#include "perfshap/xper.hpp"
#include "report/output.hpp"
#include "xper_report.hpp"

namespace perfshap::cli {

namespace {

struct XperCliOptions {
  CommonOptions common;
  std::string metric = "auc";
  double cfp = 1.0;
  double cfn = 1.0;
  double threshold = 0.5;
  std::string model;
  std::string coef;
  std::string train;
  std::string comparator = "full";
  std::string permutation;
  std::string features;
  long long explain_row = -1;
  int max_features = 20;
  std::string clusters;  // "", "auto" or a number of clusters
  bool overfit = false;
};

// --clusters: 0 = auto (largest silhouette), else the number of clusters.
std::size_t ParseClusters(const std::string& text) {
  if (text == "auto") return 0;
  std::size_t k = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), k);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || k < 2)
    throw InvalidArgument("--clusters " + text + ": use auto (k = 2..10 by the silhouette) or a number >= 2");
  return k;
}

std::string Trim(std::string s) {
  const auto not_space = [](unsigned char c) { return c != ' ' && c != '\t' && c != '\r' && c != '\n'; };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

std::vector<std::string> SplitComma(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(Trim(cell));
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

// Lines of a text file with their 1-based numbers; a UTF-8 BOM and CR line ends are removed.
std::vector<std::string> ReadLines(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError(what + " " + path + ": cannot open the file (check the path)");
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (lines.empty() && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
    lines.push_back(line);
  }
  return lines;
}

bool ParseDouble(const std::string& text, double& out) {
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, last, out);
  return ec == std::errc() && ptr == last && first != last && std::isfinite(out);
}

// A coefficient file: header with columns `name` and `coef` (others ignored), `const` first.
struct Coefficients {
  std::vector<std::string> names;  // features, in file order (const excluded)
  std::vector<double> values;      // const first, then one per name
  std::vector<std::size_t> lines;  // line of each name
};

Coefficients ReadCoefficients(const std::string& path) {
  const auto lines = ReadLines(path, "--coef");
  std::size_t first = 0;
  while (first < lines.size() && Trim(lines[first]).empty()) ++first;
  if (first == lines.size())
    throw DataError("--coef " + path + ": the file is empty; it needs a header name,coef");
  const auto header = SplitComma(lines[first]);
  const auto name_col = std::find(header.begin(), header.end(), "name");
  const auto coef_col = std::find(header.begin(), header.end(), "coef");
  if (name_col == header.end() || coef_col == header.end())
    throw DataError("--coef " + path + " line " + std::to_string(first + 1) +
                    ": the header needs the columns name and coef (found '" + lines[first] + "')");
  const auto ni = static_cast<std::size_t>(name_col - header.begin());
  const auto ci = static_cast<std::size_t>(coef_col - header.begin());
  Coefficients c;
  std::map<std::string, std::size_t> seen;
  for (std::size_t l = first + 1; l < lines.size(); ++l) {
    if (Trim(lines[l]).empty()) continue;
    const std::string where = "--coef " + path + " line " + std::to_string(l + 1);
    const auto cells = SplitComma(lines[l]);
    if (cells.size() != header.size())
      throw DataError(where + ": " + std::to_string(cells.size()) + " cells, the header has " +
                      std::to_string(header.size()));
    const std::string& name = cells[ni];
    double v = 0;
    if (name.empty()) throw DataError(where + ": empty name");
    if (!ParseDouble(cells[ci], v))
      throw DataError(where + ": the coefficient of '" + name + "' is '" + cells[ci] +
                      "', not a finite number");
    if (c.values.empty()) {
      if (name != "const")
        throw DataError(where + ": the first coefficient must be 'const' (the intercept), found '" + name +
                        "'");
      c.values.push_back(v);
      continue;
    }
    if (name == "const") throw DataError(where + ": 'const' appears twice");
    if (const auto it = seen.find(name); it != seen.end())
      throw DataError(where + ": '" + name + "' appears twice (first on line " + std::to_string(it->second) +
                      ")");
    seen[name] = l + 1;
    c.names.push_back(name);
    c.values.push_back(v);
    c.lines.push_back(l + 1);
  }
  if (c.names.empty()) throw DataError("--coef " + path + ": no feature coefficient after 'const'");
  return c;
}

// A permutation file: one 0-based index per line, line k + 1 holds pi(k).
std::vector<std::size_t> ReadPermutation(const std::string& path, std::size_t n) {
  auto lines = ReadLines(path, "--permutation");
  while (!lines.empty() && Trim(lines.back()).empty()) lines.pop_back();
  const std::string range = "0.." + std::to_string(n - 1);
  std::vector<std::size_t> pi;
  std::vector<std::size_t> line_of(n, 0);
  for (std::size_t l = 0; l < lines.size(); ++l) {
    const std::string where = "--permutation " + path + " line " + std::to_string(l + 1);
    const std::string text = Trim(lines[l]);
    std::size_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
      throw DataError(where + ": '" + text +
                      "' is not a 0-based row index; the file holds one index per line" +
                      " (line k+1 = pi(k)), e.g. the perm_k column of a k,perm_k CSV without its header");
    if (v >= n)
      throw DataError(where + ": index " + text + " is outside " + range + " (the sample has " +
                      std::to_string(n) + " rows)");
    if (line_of[v] != 0)
      throw DataError(where + ": index " + text + " repeats line " + std::to_string(line_of[v]) +
                      "; a permutation lists each of " + range + " once");
    line_of[v] = l + 1;
    pi.push_back(v);
  }
  if (pi.size() != n)
    throw DataError("--permutation " + path + ": " + std::to_string(pi.size()) + " lines for a sample of " +
                    std::to_string(n) + " rows; line k+1 must hold pi(k) for k = " + range);
  return pi;
}

std::vector<std::string> ParseFeatureList(const std::string& list) {
  std::vector<std::string> out;
  for (auto& name : SplitComma(list))
    if (!name.empty()) out.push_back(name);
  return out;
}

// The sample restricted to `names`, in that order.
Dataset SelectColumns(const Dataset& d, const std::vector<std::string>& names) {
  std::vector<std::vector<double>> cols;
  for (const auto& name : names) {
    const auto c = d.column(d.FeatureIndex(name));
    cols.emplace_back(c.begin(), c.end());
  }
  Dataset out(names, std::move(cols), std::vector<double>(d.label().begin(), d.label().end()),
              d.label_name());
  out.set_source(d.source());
  return out;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) {
    if (!s.empty()) s += ", ";
    s += n;
  }
  return s;
}

// The XPER paper's Monte Carlo design, rows 700..999 as the sample (the paper's test part).
Dataset GeneratedSample(std::uint64_t seed) {
  ProbitDesign design;
  design.seed = seed;
  const Dataset all = GenerateProbitDesign(design);
  constexpr std::size_t kFirst = 700;
  std::vector<std::vector<double>> cols;
  for (std::size_t j = 0; j < all.n_features(); ++j) {
    const auto c = all.column(j);
    cols.emplace_back(c.begin() + kFirst, c.end());
  }
  Dataset d(all.feature_names(), std::move(cols),
            std::vector<double>(all.label().begin() + kFirst, all.label().end()), "y");
  d.set_source("generated probit design (seed " + std::to_string(seed) + "), rows 700-999");
  return d;
}

Link LinkOf(const std::string& model) {
  if (model == "probit") return Link::kProbit;
  if (model == "logistic") return Link::kLogit;
  if (model == "linear") return Link::kIdentity;
  throw InvalidArgument("--model " + model + " with --coef: use probit, logistic or linear");
}

void RunXper(const XperCliOptions& o) {
  const CommonOptions& c = o.common;
  PrepareOut(c);
  XperOptions opt;
  opt.metric = FindMetric(o.metric, "xper").name;
  opt.comparator = ParseXperComparator(o.comparator);
  opt.cfp = o.cfp;
  opt.cfn = o.cfn;
  opt.threshold = o.threshold;
  opt.seed = c.seed;
  opt.max_features = o.max_features;
  const bool regression = FindMetric(opt.metric, "xper").regression();
  if (!o.coef.empty() && !o.train.empty())
    throw InvalidArgument("give either --coef FILE or --train FILE, not both");
  if ((!o.coef.empty() || !o.train.empty()) && o.model.empty())
    throw InvalidArgument(std::string(o.coef.empty() ? "--train" : "--coef") +
                          " needs --model (probit, logistic or linear" + (o.coef.empty() ? ", gnb" : "") +
                          ")");

  // The sample: --data, or the paper's probit design.
  Dataset data;
  if (c.data.empty()) {
    if (regression)
      throw InvalidArgument("metric " + o.metric +
                            " needs --data with a real-valued target (--label COLUMN); the" +
                            " built-in probit design has a 0/1 label");
    data = GeneratedSample(c.seed);
  } else {
    if (o.coef.empty() && o.train.empty())
      throw InvalidArgument(
          "--data needs a model: --model probit|logistic|linear --coef FILE, or --model M --train FILE");
    if (c.label.empty())
      throw InvalidArgument("--data " + c.data + " needs --label COLUMN (the true target)");
    // Without --positive the label is read as a number, so that XPER's own checks (0/1 labels,
    // both classes for AUC) report the problem rather than the generic reader.
    CsvOptions csv;
    csv.label = c.label;
    csv.positive = c.positive;
    csv.regression = regression || c.positive.empty();
    data = ReadCsv(c.data, csv);
  }
  const std::string data_name = data.source();

  // Feature selection: --features, or every column but the label.
  std::vector<std::string> features =
      o.features.empty() ? data.feature_names() : ParseFeatureList(o.features);
  for (const auto& name : features) {
    const auto& all = data.feature_names();
    if (std::find(all.begin(), all.end(), name) == all.end())
      throw InvalidArgument("--features names '" + name + "', which is not a column of " + data_name +
                            " (columns: " + JoinNames(all) + ")");
  }

  const std::size_t clusters_k = o.clusters.empty() ? 0 : ParseClusters(o.clusters);
  if (o.overfit && o.train.empty())
    throw InvalidArgument("--overfit compares the training and test samples: it needs --model M --train FILE");

  // The model.
  std::unique_ptr<Model> model;
  Json model_json;
  Dataset train_sample;  // with --train: the training rows, the model's columns
  std::shared_ptr<const Learner> learner;  // with --train
  if (!o.coef.empty() || (o.train.empty() && c.data.empty())) {
    std::vector<double> coef;
    std::vector<std::string> order;
    std::string model_name = o.model.empty() ? "probit" : o.model;
    if (!o.coef.empty()) {
      const Coefficients file = ReadCoefficients(o.coef);
      for (std::size_t t = 0; t < file.names.size(); ++t)
        if (std::find(features.begin(), features.end(), file.names[t]) == features.end())
          throw DataError("--coef " + o.coef + " line " + std::to_string(file.lines[t]) + " names '" +
                          file.names[t] + "', which is not a feature of " + data_name +
                          " (features: " + JoinNames(features) + ")");
      for (const auto& name : features)
        if (std::find(file.names.begin(), file.names.end(), name) == file.names.end())
          throw DataError("feature '" + name + "' of " + data_name + " has no coefficient in --coef " +
                          o.coef + "; add a line '" + name +
                          ",VALUE' or choose the model's columns with --features");
      coef = file.values;
      order = file.names;
      model_json["coefficients_file"] = o.coef;
    } else {
      // The generated design's true coefficients.
      if (model_name != "probit")
        throw InvalidArgument("--model " + model_name +
                              " needs --coef FILE or --train FILE; without them the model " +
                              "is the generated design's true probit");
      coef = ProbitDesign{}.beta;
      order = features;
      model_json["coefficients_file"] = nullptr;
    }
    model = MakeGlm(LinkOf(model_name), coef, model_name != "linear");
    features = order;  // the model's order
    model_json["kind"] = model_name;
    Json named;
    named["const"] = coef[0];
    for (std::size_t j = 0; j < order.size(); ++j) named[order[j]] = coef[j + 1];
    model_json["coefficients"] = named;
  } else {
    learner = MakeLearner(o.model);
    CsvOptions csv;
    csv.label = c.label.empty() ? std::string("y") : c.label;
    csv.positive = c.positive;
    csv.regression = !learner->is_classifier();
    const Dataset train = ReadCsv(o.train, csv);
    std::vector<std::size_t> columns, rows(train.n_rows());
    for (const auto& name : features) {
      const auto& names = train.feature_names();
      const auto it = std::find(names.begin(), names.end(), name);
      if (it == names.end())
        throw DataError("--train " + o.train + " has no column '" + name + "' (a feature of " + data_name +
                        ")");
      columns.push_back(static_cast<std::size_t>(it - names.begin()));
    }
    for (std::size_t r = 0; r < rows.size(); ++r) rows[r] = r;
    model = learner->Train(train, rows, columns);
    train_sample = SelectColumns(train, features);
    model_json["kind"] = learner->name();
    model_json["train"] = o.train;
    model_json["n_train"] = train.n_rows();
    model_json["description"] = model->Describe();
  }
  const Dataset sample = SelectColumns(data, features);
  const std::size_t n = sample.n_rows();
  if (o.explain_row >= 0 && static_cast<std::size_t>(o.explain_row) >= n)
    throw InvalidArgument("--explain-row " + std::to_string(o.explain_row) + " is outside 0.." +
                          std::to_string(n - 1) + " (the sample has " + std::to_string(n) + " rows)");
  if (!o.permutation.empty()) {
    if (opt.comparator != XperComparator::kPermuted)
      throw InvalidArgument(
          "--permutation needs --comparator permuted (the full comparator uses every pair)");
    opt.permutation = ReadPermutation(o.permutation, n);
  }
  opt.execution = MakeExecution(c, "coalitions");

  const XperResult r = ExplainXper(*model, sample, opt);
  const std::size_t p = r.features.size();

  // The training sample's decomposition, with the same model and options: the overfitting
  // view compares it with the test sample's, and the paper clusters the training individuals.
  const bool have_train = !o.train.empty();
  const bool clustering = !o.clusters.empty();
  XperResult train_r;
  if (have_train && (o.overfit || clustering)) {
    XperOptions train_opt = opt;
    train_opt.permutation.clear();  // a --permutation file is the test sample's; draw from --seed
    train_opt.execution = MakeExecution(c, "coalitions (train)");
    train_r = ExplainXper(*model, train_sample, train_opt);
  }
  // Heterogeneity (paper, three-step approach): K-medoids on the training individuals' XPER
  // values, one model per cluster, test rows placed by the nearest training medoid. Without
  // --train, the sample at hand is clustered and profiled (nothing to refit).
  std::optional<XperClusters> clusters;
  std::optional<XperClusterRefit> refit;
  const std::string clustered_name = have_train ? "the training sample" : "the sample";
  if (clustering) {
    XperClusterOptions co;
    co.clusters = clusters_k;
    co.execution.threads = c.threads;
    clusters = ClusterXper(have_train ? train_r : r, have_train ? train_sample : sample, co);
    if (have_train)
      refit = RefitPerCluster(*learner, train_sample, *clusters, *model, sample, r, o.threshold);
  }

  std::ostringstream s;
  s << "perfshap xper: " << data_name << "\n"
    << "  " << n << " rows, " << p << " features; model " << model_json["kind"].get<std::string>()
    << (r.additive_fast_path ? " (additive scores: no model calls)" : "") << "\n"
    << "  metric " << o.metric << " as decomposed (losses negated), comparator "
    << XperComparatorName(r.comparator) << "\n\n"
    << "  value " << Fmt("%.6f", r.value) << " = benchmark phi_0 " << Fmt("%.6f", r.base) << " + sum of phi\n"
    << "  feature              phi      share of (value - phi_0)\n";
  for (std::size_t j = 0; j < p; ++j) {
    const auto& name = r.features[j];
    s << "  " << name << std::string(16 - std::min<std::size_t>(15, name.size()), ' ')
      << Fmt("%+.6f", r.phi[j]) << "   " << (std::isfinite(r.phi_normalised[j]) ? Fmt("%6.1f%%", 100.0 * r.phi_normalised[j]) : std::string("   n/a")) << "\n";
  }
  Json explained;
  if (o.explain_row >= 0) {
    const auto i = static_cast<std::size_t>(o.explain_row);
    s << "\n  row " << i << " (y = " << Fmt("%g", sample.label()[i])
      << "): G_i = " << Fmt("%.6f", r.individual_value[i]) << " = phi_i0 "
      << Fmt("%.6f", r.individual_base[i]);
    explained["i"] = i;
    explained["y"] = sample.label()[i];
    explained["value"] = r.individual_value[i];
    explained["base"] = r.individual_base[i];
    Json phi_i;
    for (std::size_t j = 0; j < p; ++j) {
      s << " " << Fmt("%+.6f", r.individual(i, j)) << " (" << r.features[j] << ")";
      phi_i[r.features[j]] = r.individual(i, j);
    }
    explained["phi"] = phi_i;
    s << "\n";
  }
  if (o.overfit) {
    s << "\n  overfitting view        train        test\n"
      << "  value           " << Fmt("%+.6f", train_r.value) << "   " << Fmt("%+.6f", r.value) << "\n"
      << "  phi_0           " << Fmt("%+.6f", train_r.base) << "   " << Fmt("%+.6f", r.base) << "\n";
    for (std::size_t j = 0; j < p; ++j) {
      const auto& name = r.features[j];
      s << "  " << name << std::string(16 - std::min<std::size_t>(15, name.size()), ' ')
        << Fmt("%+.6f", train_r.phi[j]) << "   " << Fmt("%+.6f", r.phi[j]) << "\n";
    }
  }
  if (clusters) {
    s << "\n  clusters of " << clustered_name << " (k-medoids on individual XPER values): k = " << clusters->k
      << (clusters->automatic ? " by the largest mean silhouette" : " (fixed)") << "\n  silhouette";
    for (std::size_t t = 0; t < clusters->ks.size(); ++t)
      s << "  k=" << clusters->ks[t] << " " << Fmt("%.3f", clusters->silhouette[t]);
    s << "\n  cluster   size   mean " << sample.label_name() << "   mean phi per feature\n";
    for (std::size_t k = 0; k < clusters->profiles.size(); ++k) {
      const auto& prof = clusters->profiles[k];
      s << "  " << Fmt("%7.0f", static_cast<double>(k)) << Fmt("%7.0f", static_cast<double>(prof.size)) << "   "
        << Fmt("%8.4f", prof.label_mean) << "  ";
      for (std::size_t j = 0; j < p; ++j) s << " " << Fmt("%+.4f", prof.phi_means[j]);
      s << "\n";
    }
  }
  if (refit) {
    s << "\n  one model vs one model per cluster (test rows by the nearest training medoid)\n"
      << "  metric               train: one   per-cluster    test: one   per-cluster\n";
    for (std::size_t t = 0; t < refit->metric_names.size(); ++t) {
      const auto& name = refit->metric_names[t];
      s << "  " << name << std::string(20 - std::min<std::size_t>(19, name.size()), ' ')
        << Fmt("%10.4f", refit->train_one_model[t]) << Fmt("%14.4f", refit->train_per_cluster[t])
        << Fmt("%13.4f", refit->test_one_model[t]) << Fmt("%14.4f", refit->test_per_cluster[t]) << "\n";
    }
    for (std::size_t k = 0; k < refit->notes.size(); ++k)
      if (!refit->notes[k].empty()) s << "  cluster " << k << ": " << refit->notes[k] << "\n";
  }
  s << "\n  " << r.n_coalitions << " coalitions in " << Fmt("%.3f", r.elapsed_seconds) << " s on "
    << r.threads << " thread(s)\n";
  if (!c.out.empty()) s << "  wrote " << c.out << "/ (result.json, individual.csv, SVG figures)\n";
  Say(c, s.str());

  if (c.out.empty()) return;
  Json result;
  result["metric"] = o.metric;
  result["value"] = r.value;
  result["base"] = r.base;
  Json phi, norm;
  for (std::size_t j = 0; j < p; ++j) {
    phi[r.features[j]] = r.phi[j];
    norm[r.features[j]] = std::isfinite(r.phi_normalised[j]) ? Json(r.phi_normalised[j]) : Json(nullptr);
  }
  result["phi"] = phi;
  result["phi_normalised"] = norm;
  result["n_rows"] = n;
  result["comparator"] = XperComparatorName(r.comparator);
  result["permutation"] = r.permutation.empty()   ? Json(nullptr)
                          : o.permutation.empty() ? Json("drawn from --seed")
                                                  : Json(o.permutation);
  result["data"] = data_name;
  result["label"] = sample.label_name();
  result["model"] = model_json;
  result["threshold"] = o.threshold;
  if (opt.metric == "cost") {
    result["cfp"] = o.cfp;
    result["cfn"] = o.cfn;
  }
  result["additive_fast_path"] = r.additive_fast_path;
  result["n_coalitions"] = r.n_coalitions;
  if (o.explain_row >= 0) result["explained_row"] = explained;
  const std::filesystem::path out_dir(c.out);
  if (o.overfit) {
    Json overfit;
    overfit["train"] = XperSummaryJson(train_r);
    overfit["test"] = XperSummaryJson(r);
    if (train_r.comparator == XperComparator::kPermuted && !train_r.permutation.empty())
      overfit["train_permutation"] = "drawn from --seed";
    result["overfit"] = overfit;
    detail::WriteFileAtomic(out_dir / "xper_overfit.svg", XperOverfitSvg(train_r, r));
  }
  if (clusters) {
    const std::string label = sample.label_name();
    Json cj = ClustersJson(*clusters, r.features, label, have_train ? "train" : "test");
    std::string assignment = "sample,i,cluster\n";
    const std::string which = have_train ? "train" : "test";
    for (std::size_t i = 0; i < clusters->partition.labels.size(); ++i)
      assignment += which + "," + std::to_string(i) + "," + std::to_string(clusters->partition.labels[i]) + "\n";
    if (refit) {
      cj["refit"] = RefitJson(*refit);
      for (std::size_t i = 0; i < refit->test_labels.size(); ++i)
        assignment += "test," + std::to_string(i) + "," + std::to_string(refit->test_labels[i]) + "\n";
      detail::WriteFileAtomic(out_dir / "cluster_metrics.csv", ClusterMetricsCsv(*refit));
    }
    result["clusters"] = cj;
    detail::WriteFileAtomic(out_dir / "clusters.csv", ClusterProfilesCsv(*clusters, r.features, label));
    detail::WriteFileAtomic(out_dir / "cluster_assignment.csv", assignment);
    detail::WriteFileAtomic(out_dir / "silhouette.svg", SilhouetteSvg(*clusters, clustered_name));
    detail::WriteFileAtomic(out_dir / "xper_clusters.svg", ClusterPhiSvg(*clusters, r.features, label));
  }
  detail::WriteFileAtomic(out_dir / "xper_bar.svg", XperBarSvg(r, have_train ? "the test sample" : "the sample"));
  detail::WriteFileAtomic(out_dir / "xper_individual.svg", XperStripSvg(r, sample));
  if (o.explain_row >= 0) {
    const auto i = static_cast<std::size_t>(o.explain_row);
    detail::WriteFileAtomic(out_dir / ("xper_waterfall_row" + std::to_string(i) + ".svg"),
                            XperWaterfallSvg(r, sample, i));
  }

  std::string csv = "i,phi_i0";
  for (const auto& name : r.features) csv += ",phi_" + name;
  csv += "\n";
  char buf[40];
  for (std::size_t i = 0; i < n; ++i) {
    csv += std::to_string(i);
    std::snprintf(buf, sizeof buf, ",%.17g", r.individual_base[i]);
    csv += buf;
    for (double v : r.individual_row(i)) {
      std::snprintf(buf, sizeof buf, ",%.17g", v);
      csv += buf;
    }
    csv += "\n";
  }
  detail::WriteFileAtomic(std::filesystem::path(c.out) / "individual.csv", csv);
  WriteResult(c, result, "xper", r.features, r.threads, r.elapsed_seconds);
}

}  // namespace

void SetupXper(CLI::App& app) {
  auto o = std::make_shared<XperCliOptions>();
  AddCommonOptions(app, o->common, 2024);
  app.add_option("--metric", o->metric,
                 "auc|brier|accuracy|balanced_accuracy|sensitivity|specificity|precision|cost|mse|mae|r2")
      ->capture_default_str();
  app.add_option("--cfp", o->cfp, "cost of a false positive (metric cost)")->capture_default_str();
  app.add_option("--cfn", o->cfn, "cost of a false negative (metric cost)")->capture_default_str();
  app.add_option("--threshold", o->threshold, "class rule of the 0/1 metrics: prediction > threshold")
      ->capture_default_str();
  app.add_option(
      "--model", o->model,
      "probit|logistic|linear with --coef; gnb|logistic|linear|probit with --train (default with no "
      "--data: probit with the design's true coefficients)");
  app.add_option("--coef", o->coef, "CSV name,coef with 'const' first: an already-fitted model");
  app.add_option("--train", o->train, "CSV with the same columns: fit --model on it");
  app.add_option("--features", o->features, "comma-separated feature columns (default: all but the label)");
  app.add_option(
         "--comparator", o->comparator,
         "AUC comparison sample: full (all n^2 hybrid points, exact) or permuted (one permutation, as the "
         "XPER package)")
      ->capture_default_str();
  app.add_option("--permutation", o->permutation,
                 "file with pi for --comparator permuted: one 0-based index per line");
  app.add_option("--explain-row", o->explain_row,
                 "print and record the decomposition of this sample row (0-based)");
  app.add_option("--clusters", o->clusters,
                 "auto|K: k-medoids (PAM) on the individual XPER values (of the --train sample when given, "
                 "then one model refitted per cluster); auto picks k = 2..10 by the silhouette");
  app.add_flag("--overfit", o->overfit,
               "with --train: the same decomposition on the training and the test samples side by side");
  app.add_option("--max-features", o->max_features, "largest number of features solved exactly")
      ->capture_default_str()
      ->check(CLI::Range(1, 30));
  app.callback([o] { RunXper(*o); });
}

}  // namespace perfshap::cli
