// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The building blocks in one include: what a host extends with its own game, solver, learner,
// model or metric (perfshap/perfshap.hpp says how the headers are tiered).

#include "perfshap/blocks/coalition.hpp"
#include "perfshap/blocks/cost.hpp"
#include "perfshap/blocks/curves.hpp"
#include "perfshap/blocks/game.hpp"
#include "perfshap/blocks/game_settings.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/interactions.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/learners.hpp"
#include "perfshap/blocks/metric.hpp"
#include "perfshap/blocks/metric_registry.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/options.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/blocks/stats.hpp"
#include "perfshap/blocks/tree_learners.hpp"
#include "perfshap/blocks/trees.hpp"
#include "perfshap/blocks/welford.hpp"
