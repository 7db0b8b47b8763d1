// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Every public header of the library in one include: the entry points (robustness, XPER, shap,
// TreeSHAP, AXOM, Shapley Chains), the data (Dataset, Table, Arrow input) and the building blocks
// a host extends (Game, Solver, Learner, Model, Metric). The C ABI is perfshap/c_api.h.

#include "perfshap/arrow.hpp"
#include "perfshap/axom.hpp"
#include "perfshap/chains.hpp"
#include "perfshap/cluster.hpp"
#include "perfshap/coalition.hpp"
#include "perfshap/cost.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/curves.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/game.hpp"
#include "perfshap/generators.hpp"
#include "perfshap/learner.hpp"
#include "perfshap/learners.hpp"
#include "perfshap/metric.hpp"
#include "perfshap/metric_registry.hpp"
#include "perfshap/model.hpp"
#include "perfshap/options.hpp"
#include "perfshap/players.hpp"
#include "perfshap/random.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/solver.hpp"
#include "perfshap/split.hpp"
#include "perfshap/stats.hpp"
#include "perfshap/table.hpp"
#include "perfshap/tree_learners.hpp"
#include "perfshap/trees.hpp"
#include "perfshap/treeshap.hpp"
#include "perfshap/version.hpp"
#include "perfshap/welford.hpp"
#include "perfshap/xper.hpp"
#include "perfshap/xper_montecarlo.hpp"
