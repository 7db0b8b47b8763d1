// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Every public header of the library in one include. The installed headers come in two tiers:
// - the entry points, perfshap/*.hpp: the methods (robustness, XPER, shap, TreeSHAP, AXOM, Shapley
//   Chains, their cost estimates), the data (Dataset, Table, Arrow input), errors, execution and
//   the version; what a host calls;
// - the building blocks, perfshap/blocks/*.hpp (perfshap/blocks.hpp has them all): games, solvers,
//   learners, models, metrics, players, splits, curves, options, random streams; what a host
//   extends with its own (a game, a solver, a learner), each with a registration function.
// A building block includes building blocks and the data, error and execution headers only, never
// a method (tests/layering). Everything under engine/src is internal: not installed. The C ABI is
// perfshap/c_api.h.

#include "perfshap/arrow.hpp"
#include "perfshap/axom.hpp"
#include "perfshap/chains.hpp"
#include "perfshap/cluster.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/processes.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/sage.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/table.hpp"
#include "perfshap/treeshap.hpp"
#include "perfshap/version.hpp"
#include "perfshap/xper.hpp"

#include "perfshap/blocks.hpp"
