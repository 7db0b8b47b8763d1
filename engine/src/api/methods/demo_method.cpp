// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `demo`: the main job on built-in generated data (or the user's): a linear probability model's
// test metrics and their exact Shapley decomposition, then XPER, ShapAUC bands, a sampled solver
// on a wide design, the prediction explanations, AXOM and chains (api::RunDemo); the record's
// reporter is the demo's (report/demo_report.hpp).
#include <memory>
#include <utility>

#include "api/demo_request.hpp"
#include "api/registry.hpp"
#include "api/methods/method_kit.hpp"
#include "api/shared_options.hpp"

namespace perfshap { inline namespace v0 { namespace api {

// In a namespace of its own within the anonymous one: another method's file may share its
// unity unit, with helpers of the same names.
namespace {
namespace demo_method {

RequestOptions<DemoRequest> MakeOptions() {
  RequestOptions<DemoRequest> t("demo");
  t.Include<DataInput>(DataOptionGroup(), [](DemoRequest& r) -> DataInput& { return r.data; });
  t.Add<std::size_t>("rows", [](DemoRequest& r) -> std::size_t& { return r.data.generated_rows; })
      .AtLeast(10)
      .AtMost(100000000)
      .Help("rows of the generated probit design");
  t.Add<double>("test_size", [](DemoRequest& r) -> double& { return r.test_size; })
      .AtLeast(0.01)
      .AtMost(0.99)
      .Help("test fraction of the holdout split");
  DeclareExactLimit<DemoRequest>(t, [](DemoRequest& r) -> int& { return r.exact_limit; }, "coalitions");
  t.Add<std::uint64_t>("seed", [](DemoRequest& r) -> std::uint64_t& { return r.seed; })
      .Help("random seed (splits, generated data)");
  t.Include<ExecutionOptions>(ExecutionOptionGroup(), [](DemoRequest& r) -> ExecutionOptions& { return r.execution; });
  return t;
}

MethodRun Run(const MethodInputs& in, const GivenOptions& given) {
  DemoRequest request = ParseWith<DemoRequest, MakeOptions>(given);
  TakeTable(in.data, request.data, "demo", "the data", "data");
  in.Wire(request.execution, "demo");
  request.execution_of = in.WirePerPart(request.execution);
  return DemoMethodRun(RunDemo(request), in.out_dir);
}

}  // namespace demo_method
}  // namespace

MethodEntry DemoMethod() {
  return {"demo",
          "the main job: every method (metrics, exact Shapley, XPER, ShapAUC bands) on built-in "
          "generated data or yours",
          {InputRole::kData},
          OptionsOnce<demo_method::MakeOptions>().options(),
          demo_method::Run};
}

}}}  // namespace perfshap::api
