// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Pairwise distances, PAM (BUILD + SWAP), silhouette and the nearest-medoid rule. Every
// parallel loop writes per-point or per-block results that are reduced in index order, so the
// partition and the numbers do not depend on the thread count.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "perfshap/cluster.hpp"
#include "perfshap/error.hpp"
#include "schedule/schedule.hpp"

namespace perfshap { inline namespace v0 {

namespace {

// Points per parallel block: a block of rows of the n x n matrix.
constexpr std::size_t kRowsPerBlock = 32;
// SWAP stops when the best exchange lowers the cost by no more than this fraction of it.
constexpr double kRelativeSwapTolerance = 1e-12;

std::size_t BlockCount(std::size_t n) { return (n + kRowsPerBlock - 1) / kRowsPerBlock; }

// Clustering is a short step of a larger run: keep the threads and the cancel flag, leave the
// caller's progress bar alone.
ExecutionOptions Quiet(const ExecutionOptions& execution) {
  ExecutionOptions e;
  e.threads = execution.threads;
  e.cancel = execution.cancel;
  return e;
}

double Euclidean(const double* a, const double* b, std::size_t d) {
  double s = 0.0;
  for (std::size_t c = 0; c < d; ++c) {
    const double diff = a[c] - b[c];
    s += diff * diff;
  }
  return std::sqrt(s);
}

// Nearest and second-nearest medoid slot of every point (PAM's D and E).
struct Nearest {
  std::vector<std::size_t> slot;
  std::vector<double> first;
  std::vector<double> second;
};

void UpdateNearest(const DistanceMatrix& dist, const std::vector<std::size_t>& medoids, Nearest& near) {
  const std::size_t n = dist.size();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  near.slot.assign(n, 0);
  near.first.assign(n, kInf);
  near.second.assign(n, kInf);
  for (std::size_t s = 0; s < medoids.size(); ++s) {
    const auto row = dist.row(medoids[s]);
    for (std::size_t j = 0; j < n; ++j) {
      const double v = row[j];
      if (v < near.first[j]) {
        near.second[j] = near.first[j];
        near.first[j] = v;
        near.slot[j] = s;
      } else if (v < near.second[j]) {
        near.second[j] = v;
      }
    }
  }
  // A medoid belongs to its own slot even when another medoid coincides with it.
  for (std::size_t s = 0; s < medoids.size(); ++s) {
    const std::size_t m = medoids[s];
    if (near.slot[m] != s) {
      near.second[m] = near.first[m];
      near.first[m] = 0.0;
      near.slot[m] = s;
    }
  }
}

// The best exchange found in one block of candidates.
struct SwapCandidate {
  double delta = std::numeric_limits<double>::infinity();
  std::size_t h = 0;
  std::size_t slot = 0;
};

}  // namespace

DistanceMatrix::DistanceMatrix(std::span<const double> points, std::size_t n, std::size_t d,
                               const ExecutionOptions& execution)
    : n_(n) {
  if (n == 0 || n > kMaxPoints)
    throw InvalidArgument("distance matrix of " + std::to_string(n) + " points: need 1.." +
                          std::to_string(kMaxPoints) + " points (subsample the rows)");
  if (d == 0) throw InvalidArgument("distance matrix: points need at least one coordinate");
  if (points.size() != n * d)
    throw InvalidArgument("distance matrix: " + std::to_string(points.size()) + " values for " +
                          std::to_string(n) + " points x " + std::to_string(d) + " coordinates");
  for (std::size_t i = 0; i < n * d; ++i)
    if (!std::isfinite(points[i]))
      throw InvalidArgument("distance matrix: coordinate " + std::to_string(i % d) + " of point " +
                            std::to_string(i / d) + " is not finite");
  d_.resize(n * n);
  detail::Schedule schedule(Quiet(execution));
  // Full rows: d(i, j) and d(j, i) are computed separately but are bitwise equal, since
  // (a - b)^2 == (b - a)^2 in floating point.
  schedule.ForEachBlock(BlockCount(n), 0, [&](std::size_t b) {
    const std::size_t end = std::min(n, (b + 1) * kRowsPerBlock);
    for (std::size_t i = b * kRowsPerBlock; i < end; ++i) {
      const double* xi = points.data() + i * d;
      double* row = d_.data() + i * n;
      for (std::size_t j = 0; j < n; ++j) row[j] = i == j ? 0.0 : Euclidean(xi, points.data() + j * d, d);
    }
  });
}

KMedoidsResult KMedoids(const DistanceMatrix& dist, std::size_t k, const ExecutionOptions& execution,
                        int max_swaps) {
  const std::size_t n = dist.size();
  if (k == 0 || k > n)
    throw InvalidArgument("k-medoids with k = " + std::to_string(k) + " on " + std::to_string(n) +
                          " points: k must be in 1.." + std::to_string(n));
  detail::Schedule schedule(Quiet(execution));
  const std::size_t n_blocks = BlockCount(n);
  std::vector<double> score(n);
  std::vector<char> is_medoid(n, 0);
  std::vector<std::size_t> medoids;
  medoids.reserve(k);

  // BUILD, first medoid: the point with the least total distance to all others.
  schedule.ForEachBlock(n_blocks, 0, [&](std::size_t b) {
    const std::size_t end = std::min(n, (b + 1) * kRowsPerBlock);
    for (std::size_t i = b * kRowsPerBlock; i < end; ++i) {
      double s = 0.0;
      for (double v : dist.row(i)) s += v;
      score[i] = s;
    }
  });
  std::size_t first = 0;
  for (std::size_t i = 1; i < n; ++i)
    if (score[i] < score[first]) first = i;
  medoids.push_back(first);
  is_medoid[first] = 1;
  std::vector<double> nearest(dist.row(first).begin(), dist.row(first).end());

  // BUILD, next medoids: the largest decrease of the cost sum_j max(D_j - d(i, j), 0).
  while (medoids.size() < k) {
    schedule.ForEachBlock(n_blocks, 0, [&](std::size_t b) {
      const std::size_t end = std::min(n, (b + 1) * kRowsPerBlock);
      for (std::size_t i = b * kRowsPerBlock; i < end; ++i) {
        if (is_medoid[i]) continue;
        const auto row = dist.row(i);
        double gain = 0.0;
        for (std::size_t j = 0; j < n; ++j) gain += std::max(nearest[j] - row[j], 0.0);
        score[i] = gain;
      }
    });
    std::size_t best = n;
    for (std::size_t i = 0; i < n; ++i)
      if (!is_medoid[i] && (best == n || score[i] > score[best])) best = i;
    medoids.push_back(best);
    is_medoid[best] = 1;
    const auto row = dist.row(best);
    for (std::size_t j = 0; j < n; ++j) nearest[j] = std::min(nearest[j], row[j]);
  }

  // SWAP. Exchanging slot s for candidate h changes point j's distance by
  //   min(d_hj, E_j) - D_j        when j's nearest medoid is slot s,
  //   min(d_hj - D_j, 0)          otherwise,
  // so one pass over j gives the change of every slot: a shared part plus a per-slot
  // correction for the points the slot serves.
  Nearest near;
  UpdateNearest(dist, medoids, near);
  double cost = 0.0;
  for (double v : near.first) cost += v;
  KMedoidsResult result;
  std::vector<SwapCandidate> block_best(n_blocks);
  while (result.swaps < max_swaps && k < n && cost > 0.0) {
    schedule.ForEachBlock<std::vector<double>>(
        n_blocks, 0, [k] { return std::make_unique<std::vector<double>>(k); },
        [&](std::size_t b, std::vector<double>& delta) {
          SwapCandidate best;
          const std::size_t end = std::min(n, (b + 1) * kRowsPerBlock);
          for (std::size_t h = b * kRowsPerBlock; h < end; ++h) {
            if (is_medoid[h]) continue;
            std::fill(delta.begin(), delta.end(), 0.0);
            double shared = 0.0;
            const auto row = dist.row(h);
            for (std::size_t j = 0; j < n; ++j) {
              const double dhj = row[j];
              const double gain = std::min(dhj - near.first[j], 0.0);
              shared += gain;
              delta[near.slot[j]] += std::min(dhj, near.second[j]) - near.first[j] - gain;
            }
            for (std::size_t s = 0; s < k; ++s) {
              const double total = shared + delta[s];
              if (total < best.delta) best = {total, h, s};
            }
          }
          block_best[b] = best;
        });
    SwapCandidate best;
    for (const auto& c : block_best)
      if (c.delta < best.delta) best = c;
    if (!(best.delta < -kRelativeSwapTolerance * cost)) break;
    is_medoid[medoids[best.slot]] = 0;
    is_medoid[best.h] = 1;
    medoids[best.slot] = best.h;
    ++result.swaps;
    UpdateNearest(dist, medoids, near);
    cost = 0.0;
    for (double v : near.first) cost += v;
  }

  // Canonical labels: clusters in ascending medoid index.
  std::sort(medoids.begin(), medoids.end());
  result.medoids = medoids;
  UpdateNearest(dist, medoids, near);
  result.labels = near.slot;
  result.cost = 0.0;
  for (double v : near.first) result.cost += v;
  return result;
}

std::vector<double> SilhouetteSamples(const DistanceMatrix& dist, std::span<const std::size_t> labels,
                                      std::size_t k, const ExecutionOptions& execution) {
  const std::size_t n = dist.size();
  if (labels.size() != n)
    throw InvalidArgument("silhouette: " + std::to_string(labels.size()) + " labels for " + std::to_string(n) +
                          " points");
  std::vector<std::size_t> sizes(k, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (labels[i] >= k)
      throw InvalidArgument("silhouette: point " + std::to_string(i) + " has cluster " +
                            std::to_string(labels[i]) + ", outside 0.." + std::to_string(k - 1));
    ++sizes[labels[i]];
  }
  const auto used = static_cast<std::size_t>(std::count_if(sizes.begin(), sizes.end(), [](auto s) { return s > 0; }));
  if (used < 2 || used + 1 > n)
    throw InvalidArgument("silhouette of " + std::to_string(used) + " non-empty clusters on " +
                          std::to_string(n) + " points: it needs 2.." + std::to_string(n > 0 ? n - 1 : 0) +
                          " clusters");
  std::vector<double> s(n, 0.0);
  detail::Schedule schedule(Quiet(execution));
  schedule.ForEachBlock<std::vector<double>>(
      BlockCount(n), 0, [k] { return std::make_unique<std::vector<double>>(k); },
      [&](std::size_t b, std::vector<double>& sums) {
        const std::size_t end = std::min(n, (b + 1) * kRowsPerBlock);
        for (std::size_t i = b * kRowsPerBlock; i < end; ++i) {
          const std::size_t own = labels[i];
          if (sizes[own] <= 1) continue;  // alone in its cluster: 0 by convention
          std::fill(sums.begin(), sums.end(), 0.0);
          const auto row = dist.row(i);
          for (std::size_t j = 0; j < n; ++j) sums[labels[j]] += row[j];  // d(i, i) = 0
          const double a = sums[own] / static_cast<double>(sizes[own] - 1);
          double bmin = std::numeric_limits<double>::infinity();
          for (std::size_t c = 0; c < k; ++c)
            if (c != own && sizes[c] > 0) bmin = std::min(bmin, sums[c] / static_cast<double>(sizes[c]));
          const double denom = std::max(a, bmin);
          s[i] = denom > 0.0 ? (bmin - a) / denom : 0.0;
        }
      });
  return s;
}

double SilhouetteScore(const DistanceMatrix& dist, std::span<const std::size_t> labels, std::size_t k,
                       const ExecutionOptions& execution) {
  const std::vector<double> s = SilhouetteSamples(dist, labels, k, execution);
  double sum = 0.0;
  for (double v : s) sum += v;
  return sum / static_cast<double>(s.size());
}

std::vector<std::size_t> AssignToMedoids(std::span<const double> points, std::size_t m, std::size_t d,
                                         std::span<const double> medoid_points, std::size_t k) {
  if (k == 0 || d == 0) throw InvalidArgument("nearest-medoid rule: needs k >= 1 medoids of d >= 1 coordinates");
  if (points.size() != m * d || medoid_points.size() != k * d)
    throw InvalidArgument("nearest-medoid rule: " + std::to_string(points.size()) + " values for " +
                          std::to_string(m) + " points and " + std::to_string(medoid_points.size()) +
                          " for " + std::to_string(k) + " medoids of " + std::to_string(d) + " coordinates");
  std::vector<std::size_t> labels(m, 0);
  for (std::size_t i = 0; i < m; ++i) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < k; ++c) {
      const double v = Euclidean(points.data() + i * d, medoid_points.data() + c * d, d);
      if (v < best) {
        best = v;
        labels[i] = c;
      }
    }
  }
  return labels;
}

}}  // namespace perfshap
