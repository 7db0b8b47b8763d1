// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "perfshap/blocks/curves.hpp"

namespace perfshap { inline namespace v0 { namespace testing {

/** @brief Two evaluations of one coalition's curves agree bit for bit (AUC, both areas, every
 *  grid reading). */
inline ::testing::AssertionResult SameCurveValues(const CurveGridValues& a, const CurveGridValues& b) {
  if (a.auc != b.auc) return ::testing::AssertionFailure() << "auc differs";
  if (a.average_precision != b.average_precision) return ::testing::AssertionFailure() << "average_precision differs";
  if (a.auprc_trapezoid != b.auprc_trapezoid) return ::testing::AssertionFailure() << "auprc_trapezoid differs";
  if (a.tpr != b.tpr) return ::testing::AssertionFailure() << "tpr readings differ";
  if (a.precision != b.precision) return ::testing::AssertionFailure() << "precision readings differ";
  return ::testing::AssertionSuccess();
}

}}}  // namespace perfshap::testing
