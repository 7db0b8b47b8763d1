// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `axom`: random forests explained by the trees that vote with them, and the robustness L_bar of
// tree, forest and AXOM explanations (api::RunAxom): one data set, the paper's protocol, or the
// host's own fitted forest; the record's reporter is AXOM's (report/axom_report.hpp).
#include <memory>
#include <utility>

#include "api/axom_request.hpp"
#include "api/registry.hpp"
#include "api/methods/method_kit.hpp"
#include "api/shared_options.hpp"

namespace perfshap { inline namespace v0 { namespace api {

// In a namespace of its own within the anonymous one: another method's file may share its
// unity unit, with helpers of the same names.
namespace {
namespace axom_method {

using Request = AxomRequest;
using Ctx = RequestOptions<Request>::ParseContext;

constexpr auto Field = [](auto field) { return Member<Request>(field); };

RequestOptions<Request> MakeOptions() {
  RequestOptions<Request> t("axom");
  t.Include<DataInput>(DataOptionGroup(), Field(&Request::data));
  t.Add("paper", Field(&Request::paper))
      .Switch()
      .Help("the paper's protocol on wine, glass, seeds and banknote (tuned, 10 seeds by default): Tables 1-4 and "
            "Fig. 6");
  t.Add("wide", Field(&Request::wide))
      .Switch()
      .Help("with paper: also breast_cancer (30 features), ionosphere (34) and sonar (60)");
  t.Add("data_dir", Field(&Request::data_dir)).Value("DIR").Help("with paper: the folder of the data sets' CSV files");
  t.AddParsed("model_file", OptionType::kText, "",
              [](const Ctx& c, Request& r) { r.model.tree_file = c.text; })
      .Value("FILE")
      .Help("an XGBoost model: refused, AXOM is defined for forests (see docs/methods/axom.md)");
  t.Add("trees", Field(&Request::trees)).AtLeast(1).AtMost(100000).Help("trees of the forest");
  t.Add("max_depth", Field(&Request::max_depth))
      .AtLeast(0)
      .AtMost(1000)
      .Help("largest depth of the tree and the forest's trees (0 = unlimited)");
  t.Add("tune", Field(&Request::tune))
      .Switch()
      .Help("tune the tree and the forest by 5-fold grid-search cross-validation on accuracy");
  t.Add("eps", Field(&Request::eps))
      .Above(0)
      .AtMost(0.5)
      .Help("half-width of the neighbourhood box, features min-max normalised");
  t.Add("neighbours", Field(&Request::neighbours)).Help("points drawn in the box per test point");
  t.AddParsed("seeds", OptionType::kInteger, "", [](const Ctx& c, Request& r) {
     const std::uint64_t n = perfshap::detail::ParseUnsignedOption(c.method, c.option.info, c.text);
     if (n > 0) r.seeds = static_cast<std::size_t>(n);
   })
      .AtLeast(0)
      .Help("seeds (splits, forests, neighbours): seed, seed + 1, ... (0: 1, or 10 with paper)");
  t.Add("checkpoint", Field(&Request::checkpoint))
      .Value("DIR")
      .Help("keeps every finished seed (after the first): the same run after a crash resumes, bitwise the "
            "uninterrupted result");
  t.Add("full_matrix", Field(&Request::full_matrix))
      .Switch()
      .Help("g = every class's SHAP values instead of the predicted class's");
  t.AddParsed("heatmap_features", OptionType::kList, "", [](const Ctx& c, Request& r) {
     const std::vector<std::string> pair = perfshap::detail::ParseListOption(c.method, c.option.info, c.text);
     if (pair.size() != 2) c.Refuse("two column names, a,b");
     r.heatmap_features = std::make_pair(pair[0], pair[1]);
   })
      .Value("A,B")
      .Help("the features of the heat maps (default: the forest's two most important)");
  t.Add("heatmap_grid", Field(&Request::heatmap_grid)).AtLeast(2).AtMost(1000).Help("points per side of the heat maps");
  t.Add("seed", Field(&Request::seed)).Help("random seed (splits, forests, neighbours)");
  t.Include<ExecutionOptions>(ExecutionOptionGroup(), Field(&Request::execution));
  return t;
}

MethodRun Run(const MethodInputs& in, const GivenOptions& given) {
  Request request = ParseWith<Request, MakeOptions>(given);
  TakeTable(in.data, request.data, "axom", "the data", "data");
  TakeModel(in.model, request.model, "axom");
  in.Wire(request.execution, "axom");
  request.execution_of = in.WirePerPart(request.execution);
  const bool paper = request.paper, given_model = request.model.given();
  MethodRun run = AxomMethodRun(RunAxom(request));
  if (!in.out_dir.empty() && !given_model)
    run.console += "  wrote " + in.out_dir +
                   (paper ? "/result.json, table1..4.csv, tables.md, fig6_boxplots.svg\n"
                          : "/result.json, points.csv and the SVGs\n");
  return run;
}

}  // namespace axom_method
}  // namespace

MethodEntry AxomMethod() {
  return {"axom",
          "AXOM: explain random forests by the trees voting with them, and the robustness (L_bar) of tree, "
          "forest and AXOM explanations",
          {InputRole::kData, InputRole::kModel},
          OptionsOnce<axom_method::MakeOptions>().options(),
          axom_method::Run};
}

}}}  // namespace perfshap::api
