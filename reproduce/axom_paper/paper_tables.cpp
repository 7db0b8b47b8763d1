// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `axom --paper`: the paper's data sets, its Tables 1-4 and Fig. 6 over them, our numbers beside the
// paper's (Pala & Garcia-Cuesta); the per-seed runs are the library's AXOM protocol and their
// summaries the AXOM report's (report/axom_report.hpp). Declared in api/reproductions.hpp.
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "api/reproductions.hpp"
#include "report/axom_report.hpp"
#include "report/csv.hpp"
#include "report/format.hpp"
#include "report/json.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"

namespace perfshap { inline namespace v0 {

std::vector<std::string> AxomPaperDataSets(bool wide) {
  std::vector<std::string> names = {"wine", "glass", "seeds", "banknote"};
  if (wide) names.insert(names.end(), {"breast_cancer", "ionosphere", "sonar"});
  return names;
}

namespace detail {

namespace {

/** The paper's numbers (Pala & Garcia-Cuesta, Tables 1-4), for the comparison tables. */
struct PaperNumbers {
  const char* name;
  int features;
  int train;
  int test;
  double dt_accuracy;
  double rf_accuracy;
  double l_mean[3];
  double l_std[3];
  const char* p[3];  // DT vs RF, DT vs AXOM, RF vs AXOM, as printed
  double mislabelling;
};
constexpr PaperNumbers kPaper[] = {
    {"wine", 13, 160, 18, 0.889, 1.000, {0.00, 0.55, 0.47}, {0.00, 0.51, 0.44}, {"<0.001", "<0.001", "0.042"}, 0.121},
    {"glass", 10, 192, 22, 0.818, 0.955, {1.89, 1.75, 1.27}, {1.78, 1.87, 0.72}, {"0.774", "0.113", "0.007"}, 0.249},
    {"seeds", 7, 189, 21, 0.857, 0.952, {0.65, 0.77, 0.65}, {2.02, 0.72, 0.67}, {"0.008", "0.008", "0.030"}, 0.140},
    {"banknote", 5, 1234, 138, 0.986, 0.993, {1.75, 1.58, 1.28}, {3.32, 1.57, 1.34}, {"0.3023", "0.0656", "0.0444"},
     0.025},
};

const PaperNumbers* Paper(const std::string& name) {
  for (const PaperNumbers& p : kPaper)
    if (name == p.name) return &p;
  return nullptr;
}

}  // namespace

std::string AxomPaperText(const std::vector<AxomDataReport>& reports, const AxomReportSettings& settings) {
  (void)settings;
  std::ostringstream t1, t2, t3, t4;
  t1 << "Table 1: data sets and accuracy (ours: mean +- std over seeds; paper in brackets)\n\n"
     << "| data set | features | train | test | DT accuracy | RF accuracy |\n|---|---|---|---|---|---|\n";
  t2 << "Table 2: L_bar, mean and std over the test points (ours: the mean over seeds; paper in brackets)\n\n"
     << "| data set | DT mean | DT std | RF mean | RF std | AXOM mean | AXOM std | AXOM < RF |\n"
     << "|---|---|---|---|---|---|---|---|\n";
  t3 << "Table 3: p-values of the paired per-point L_bar (median over seeds; seeds with p < 0.05; paper in brackets)\n\n"
     << "| data set | comparison | paired t | Wilcoxon signed-rank | Student t (unpaired) | Mann-Whitney U | paper |\n"
     << "|---|---|---|---|---|---|---|\n";
  t4 << "Table 4: weak mislabelling, trees voting against the forest at the test points\n\n"
     << "| data set | ours | paper |\n|---|---|---|\n";
  for (const AxomDataReport& d : reports) {
    const Json s = AxomSummaries(d);
    const PaperNumbers* p = Paper(d.name);
    const AxomRun& r0 = d.runs.front();
    auto g = [&](const Json& j, const char* k) {
      return j[k].is_null() ? std::numeric_limits<double>::quiet_NaN() : j[k].get<double>();
    };
    auto bracket = [&](const std::string& v) { return p != nullptr ? " (" + v + ")" : std::string(); };
    t1 << "| " << d.name << " | " << r0.n_features << bracket(p ? std::to_string(p->features) : "") << " | "
       << r0.n_train << bracket(p ? std::to_string(p->train) : "") << " | " << r0.n_test
       << bracket(p ? std::to_string(p->test) : "") << " | " << AxomPct(g(s["dt"], "accuracy")) << " +- "
       << AxomPct(g(s["dt"], "accuracy_std_over_seeds")) << bracket(p ? AxomPct(p->dt_accuracy) : "") << " | "
       << AxomPct(g(s["rf"], "accuracy")) << " +- " << AxomPct(g(s["rf"], "accuracy_std_over_seeds"))
       << bracket(p ? AxomPct(p->rf_accuracy) : "") << " |\n";
    t2 << "| " << d.name;
    for (int m = 0; m < 3; ++m)
      t2 << " | " << AxomNum(g(s[kAxomModels[m]], "L_mean")) << " +- " << AxomNum(g(s[kAxomModels[m]], "L_mean_std_over_seeds"))
         << bracket(p ? AxomNum(p->l_mean[m]) : "") << " | " << AxomNum(g(s[kAxomModels[m]], "L_std"))
         << bracket(p ? AxomNum(p->l_std[m]) : "");
    t2 << " | " << s["axom_more_robust_than_rf_in_seeds"].get<std::size_t>() << " of " << d.runs.size() << " |\n";
    for (int c = 0; c < 3; ++c) {
      const Json& pc = s["p_values"][kAxomComparisons[c]];
      t3 << "| " << d.name << " | " << kAxomComparisonNames[c];
      for (const char* test : {"paired_t", "wilcoxon", "student_t", "mann_whitney"})
        t3 << " | " << AxomNum(g(pc[test], "median"), 4) << " (" << pc[test]["below_0.05"].get<std::size_t>() << "/"
           << pc[test]["seeds"].get<std::size_t>() << ")";
      t3 << " | " << (p ? p->p[c] : "") << " |\n";
    }
    t4 << "| " << d.name << " | " << AxomPct(g(s, "mislabelling")) << " +- " << AxomPct(g(s, "mislabelling_std_over_seeds"))
       << " | " << (p ? AxomPct(p->mislabelling) : std::string()) << " |\n";
  }
  return t1.str() + "\n" + t2.str() + "\n" + t3.str() + "\n" + t4.str();
}

void BuildAxomPaperReport(ReportContent& out, const std::vector<AxomDataReport>& reports,
                          const AxomReportSettings& settings) {
  // CSV tables: one row per data set (and comparison), ours and the paper's side by side.
  CsvTable t1({"data_set", "features", "train", "test", "dt_accuracy", "dt_accuracy_std", "rf_accuracy",
               "rf_accuracy_std", "paper_dt_accuracy", "paper_rf_accuracy"},
              CsvTable::NonFinite::kEmpty);
  CsvTable t2({"data_set", "model", "L_mean", "L_mean_std_over_seeds", "L_std", "L_hat_mean", "paper_L_mean",
               "paper_L_std"},
              CsvTable::NonFinite::kEmpty);
  CsvTable t3({"data_set", "comparison", "test", "p_median", "seeds_below_0.05", "seeds", "paper_p"},
              CsvTable::NonFinite::kEmpty);
  CsvTable t4({"data_set", "mislabelling", "mislabelling_std", "paper_mislabelling"}, CsvTable::NonFinite::kEmpty);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Json datasets = Json::object();
  std::vector<const AxomDataReport*> all;
  for (const AxomDataReport& d : reports) {
    all.push_back(&d);
    const Json s = AxomSummaries(d);
    const PaperNumbers* p = Paper(d.name);
    auto g = [&](const Json& j, const char* k) { return j[k].is_null() ? nan : j[k].get<double>(); };
    const AxomRun& r0 = d.runs.front();
    t1.Row().Text(d.name).Count(r0.n_features).Count(r0.n_train).Count(r0.n_test);
    t1.Number(g(s["dt"], "accuracy")).Number(g(s["dt"], "accuracy_std_over_seeds"));
    t1.Number(g(s["rf"], "accuracy")).Number(g(s["rf"], "accuracy_std_over_seeds"));
    t1.Number(p ? p->dt_accuracy : nan).Number(p ? p->rf_accuracy : nan);
    for (int m = 0; m < 3; ++m) {
      const Json& j = s[kAxomModels[m]];
      t2.Row().Text(d.name).Text(kAxomModels[m]).Number(g(j, "L_mean")).Number(g(j, "L_mean_std_over_seeds"));
      t2.Number(g(j, "L_std")).Number(g(j, "L_hat_mean")).Number(p ? p->l_mean[m] : nan).Number(p ? p->l_std[m] : nan);
    }
    for (int c = 0; c < 3; ++c)
      for (const char* test : {"paired_t", "wilcoxon", "student_t", "mann_whitney"}) {
        const Json& pt = s["p_values"][kAxomComparisons[c]][test];
        t3.Row().Text(d.name).Text(kAxomComparisons[c]).Text(test).Number(g(pt, "median"));
        t3.Count(pt["below_0.05"].get<std::size_t>()).Count(pt["seeds"].get<std::size_t>()).Text(p ? p->p[c] : "");
      }
    t4.Row().Text(d.name).Number(g(s, "mislabelling")).Number(g(s, "mislabelling_std_over_seeds"));
    t4.Number(p ? p->mislabelling : nan);
    Json entry = s;
    Json per_seed = Json::array();
    for (std::size_t k = 0; k < d.runs.size(); ++k) per_seed.push_back(AxomRunJson(d.runs[k], d.seeds[k]));
    entry["per_seed"] = per_seed;
    entry["n_train"] = r0.n_train;
    entry["n_test"] = r0.n_test;
    datasets[d.name] = entry;
  }
  out.Table("table1.csv", std::move(t1));
  out.Table("table2.csv", std::move(t2));
  out.Table("table3.csv", std::move(t3));
  out.Table("table4.csv", std::move(t4));
  out.Text("tables.md", AxomPaperText(reports, settings));
  out.Figure("fig6_boxplots.svg", FigureSet::kSummary, [&] { return AxomBoxFigure(all); });
  Json body;
  body["paper"] = true;
  body["eps"] = settings.eps;
  body["neighbours"] = settings.neighbours;
  body["g"] = settings.full_matrix ? "classes x features" : "predicted class";
  body["tune"] = settings.tune;
  body["datasets"] = datasets;
  body["files"] = FilesDrawn(out, {"table1.csv", "table2.csv", "table3.csv", "table4.csv", "tables.md", "fig6_boxplots.svg"});
  body["figures"] = out.figures();
  std::vector<std::string> names;
  for (const AxomDataReport& d : reports) names.push_back(d.name);
  out.Result({"axom", names, reports.front().seeds.front(), settings.threads, settings.elapsed_seconds},
             body);
}
}}}  // namespace perfshap::detail
