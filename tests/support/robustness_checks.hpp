// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Two robustness results bitwise alike, field by field (threads, processes, windows, a
// checkpoint resumed, or another front end must not move a bit).
#include <gtest/gtest.h>

#include <cstddef>

#include "perfshap/robustness.hpp"

namespace perfshap::testing {

inline void ExpectSameRobustness(const RobustnessResult& got, const RobustnessResult& want) {
  EXPECT_EQ(got.features, want.features);
  EXPECT_EQ(got.phi_auc_mean, want.phi_auc_mean);
  EXPECT_EQ(got.phi_auc_std, want.phi_auc_std);
  EXPECT_EQ(got.phi_auc_se, want.phi_auc_se);
  EXPECT_EQ(got.phi_auc_by_split, want.phi_auc_by_split);
  EXPECT_EQ(got.phi_auc_se_by_split, want.phi_auc_se_by_split);
  EXPECT_EQ(got.auc_by_split, want.auc_by_split);
  EXPECT_EQ(got.phi_auprc_mean, want.phi_auprc_mean);
  EXPECT_EQ(got.shap_roc_mean, want.shap_roc_mean);
  EXPECT_EQ(got.shap_prc_std, want.shap_prc_std);
  EXPECT_EQ(got.coalition_auc, want.coalition_auc);
  EXPECT_EQ(got.interaction_auc_mean, want.interaction_auc_mean);
  EXPECT_EQ(got.interaction_auc_by_split, want.interaction_auc_by_split);
  EXPECT_EQ(got.sample_auc, want.sample_auc);
  EXPECT_EQ(got.sample_split, want.sample_split);
  EXPECT_EQ(got.prc_baseline_mean, want.prc_baseline_mean);
  ASSERT_EQ(got.metrics.size(), want.metrics.size());
  for (std::size_t m = 0; m < got.metrics.size(); ++m) EXPECT_EQ(got.metrics[m].phi_mean, want.metrics[m].phi_mean);
  EXPECT_EQ(got.selection.removed, want.selection.removed);
  EXPECT_EQ(got.selection.auc_after_mean, want.selection.auc_after_mean);
  EXPECT_EQ(got.selection.auprc_after_std, want.selection.auprc_after_std);
  EXPECT_EQ(got.solve.n_evaluations, want.solve.n_evaluations);
  EXPECT_EQ(got.solve.converged, want.solve.converged);
  EXPECT_EQ(got.n_trainings, want.n_trainings);
  EXPECT_EQ(got.n_splits, want.n_splits);
}

}  // namespace perfshap::testing
