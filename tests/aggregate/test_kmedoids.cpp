// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// K-medoids (PAM), silhouette and the nearest-medoid rule: PAM against the brute-force optimal
// medoids on tiny sets (every k-subset), silhouette against sklearn and a direct computation,
// bitwise determinism across thread counts, and the errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "perfshap/cluster.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/random.hpp"

namespace perfshap { inline namespace v0 {
namespace {

std::vector<double> RandomPoints(std::size_t n, std::size_t d, std::uint64_t seed) {
  RandomStream rng(seed, 1);
  std::vector<double> x(n * d);
  for (auto& v : x) v = rng.Normal();
  return x;
}

// Points in a few separated blobs (centres 4 apart), so that several clusters are natural.
std::vector<double> BlobPoints(std::size_t n, std::size_t d, std::size_t blobs, std::uint64_t seed) {
  RandomStream rng(seed, 2);
  std::vector<double> x(n * d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < d; ++c) x[i * d + c] = 4.0 * static_cast<double>((i % blobs) + c) + rng.Normal();
  return x;
}

double CostOf(const DistanceMatrix& dist, const std::vector<std::size_t>& medoids) {
  double cost = 0;
  for (std::size_t j = 0; j < dist.size(); ++j) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t m : medoids) best = std::min(best, dist(m, j));
    cost += best;
  }
  return cost;
}

// The least cost over all k-subsets of the n points.
double BruteForceOptimum(const DistanceMatrix& dist, std::size_t k) {
  const std::size_t n = dist.size();
  double best = std::numeric_limits<double>::infinity();
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    if (static_cast<std::size_t>(__builtin_popcount(mask)) != k) continue;
    std::vector<std::size_t> medoids;
    for (std::size_t i = 0; i < n; ++i)
      if (mask & (1u << i)) medoids.push_back(i);
    best = std::min(best, CostOf(dist, medoids));
  }
  return best;
}

// PAM written the slow way: every BUILD step and every exchange evaluated by recomputing the
// whole cost, same order and tie rule (lowest point, then lowest slot).
std::vector<std::size_t> NaivePam(const DistanceMatrix& dist, std::size_t k) {
  const std::size_t n = dist.size();
  std::vector<std::size_t> medoids;
  while (medoids.size() < k) {
    std::size_t best = n;
    double best_cost = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
      if (std::find(medoids.begin(), medoids.end(), i) != medoids.end()) continue;
      auto trial = medoids;
      trial.push_back(i);
      const double c = CostOf(dist, trial);
      if (c < best_cost) best_cost = c, best = i;
    }
    medoids.push_back(best);
  }
  for (;;) {
    const double cost = CostOf(dist, medoids);
    double best_delta = std::numeric_limits<double>::infinity();
    std::size_t best_h = 0, best_s = 0;
    for (std::size_t h = 0; h < n; ++h) {
      if (std::find(medoids.begin(), medoids.end(), h) != medoids.end()) continue;
      for (std::size_t s = 0; s < k; ++s) {
        auto trial = medoids;
        trial[s] = h;
        const double delta = CostOf(dist, trial) - cost;
        if (delta < best_delta) best_delta = delta, best_h = h, best_s = s;
      }
    }
    if (!(best_delta < -1e-9 * cost)) break;
    medoids[best_s] = best_h;
  }
  std::sort(medoids.begin(), medoids.end());
  return medoids;
}

TEST(KMedoids, MatchesBruteForceOptimumOnSeparatedTinySets) {
  // Three, or four, well-separated groups of n <= 12 points: PAM with k = the number of groups
  // finds the optimal medoids of all k-subsets.
  int cases = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    for (std::size_t n : {6u, 9u, 12u}) {
      for (std::size_t d : {1u, 2u, 3u}) {
        for (std::size_t k : {3u, 4u}) {
          RandomStream rng(seed * 101 + n * 7 + d, 3);
          std::vector<double> x(n * d);
          for (std::size_t i = 0; i < n; ++i)
            for (std::size_t c = 0; c < d; ++c)
              x[i * d + c] = 10.0 * static_cast<double>((i % k) * (c + 1)) + rng.Normal();
          const DistanceMatrix dist(x, n, d);
          const KMedoidsResult r = KMedoids(dist, k);
          const double optimum = BruteForceOptimum(dist, k);
          EXPECT_NEAR(r.cost, optimum, 1e-12 * optimum) << "seed " << seed << " n " << n << " d " << d << " k " << k;
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 20 * 3 * 3 * 2);
}

TEST(KMedoids, EqualsNaivePamAndIsNeverBelowTheOptimum) {
  // Unstructured tiny sets: PAM is a swap-local search, so it may stop above the optimum
  // (e.g. on a plateau of equal-cost exchanges); it must still be exactly PAM (the naive
  // version's cost), never below the brute-force optimum, and usually at it.
  int cases = 0, optimal = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    for (std::size_t n : {5u, 8u, 12u}) {
      for (std::size_t d : {2u, 3u}) {
        const auto x = seed % 2 == 0 ? RandomPoints(n, d, seed * 31 + n) : BlobPoints(n, d, 3, seed * 17 + d);
        const DistanceMatrix dist(x, n, d);
        for (std::size_t k = 1; k <= std::min<std::size_t>(4, n); ++k) {
          const KMedoidsResult r = KMedoids(dist, k);
          ASSERT_EQ(r.medoids.size(), k);
          EXPECT_TRUE(std::is_sorted(r.medoids.begin(), r.medoids.end()));
          const double optimum = BruteForceOptimum(dist, k);
          // Same objective as the naive PAM (the medoid sets may differ on exact ties, e.g.
          // the two members of a two-point cluster, where rounding picks one or the other).
          EXPECT_NEAR(r.cost, CostOf(dist, NaivePam(dist, k)), 1e-12 * std::max(1.0, optimum))
              << "seed " << seed << " n " << n << " d " << d << " k " << k;
          EXPECT_GE(r.cost, optimum - 1e-12 * std::max(1.0, optimum));
          optimal += r.cost <= optimum + 1e-12 * std::max(1.0, optimum) ? 1 : 0;
          EXPECT_NEAR(r.cost, CostOf(dist, r.medoids), 1e-12 * std::max(1.0, optimum));
          // Every point sits with its nearest medoid; medoids with themselves.
          for (std::size_t j = 0; j < n; ++j) {
            for (std::size_t c = 0; c < k; ++c) EXPECT_LE(dist(r.medoids[r.labels[j]], j), dist(r.medoids[c], j));
          }
          for (std::size_t c = 0; c < k; ++c) EXPECT_EQ(r.labels[r.medoids[c]], c);
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 12 * 3 * 2 * 4);
  EXPECT_GE(optimal, cases * 9 / 10) << optimal << " of " << cases << " at the global optimum";
  std::printf("PAM at the brute-force optimum in %d of %d unstructured tiny sets\n", optimal, cases);
}

TEST(KMedoids, SwapPhaseLeavesNoImprovingExchange) {
  const std::size_t n = 60, d = 2;
  const auto x = RandomPoints(n, d, 99);
  const DistanceMatrix dist(x, n, d);
  for (std::size_t k : {2u, 3u, 5u}) {
    const KMedoidsResult r = KMedoids(dist, k);
    for (std::size_t s = 0; s < k; ++s) {
      for (std::size_t h = 0; h < n; ++h) {
        if (std::find(r.medoids.begin(), r.medoids.end(), h) != r.medoids.end()) continue;
        auto swapped = r.medoids;
        swapped[s] = h;
        EXPECT_GE(CostOf(dist, swapped), r.cost - 1e-9) << "k " << k << " swap " << s << " -> " << h;
      }
    }
  }
}

TEST(KMedoids, BitwiseIdenticalForOneTwoFourThreads) {
  const std::size_t n = 400, d = 4;  // 13 blocks of rows
  const auto x = BlobPoints(n, d, 5, 7);
  std::vector<KMedoidsResult> results;
  std::vector<std::vector<double>> silhouettes;
  for (int threads : {1, 2, 4}) {
    ExecutionOptions e;
    e.threads = threads;
    const DistanceMatrix dist(x, n, d, e);
    results.push_back(KMedoids(dist, 5, e));
    silhouettes.push_back(SilhouetteSamples(dist, results.back().labels, 5, e));
  }
  for (std::size_t t = 1; t < results.size(); ++t) {
    EXPECT_EQ(results[t].medoids, results[0].medoids);
    EXPECT_EQ(results[t].labels, results[0].labels);
    EXPECT_EQ(results[t].cost, results[0].cost);
    EXPECT_EQ(results[t].swaps, results[0].swaps);
    EXPECT_EQ(silhouettes[t], silhouettes[0]);
  }
}

TEST(KMedoids, DuplicatePointsAndKEqualN) {
  // Four copies of one point and two of another: k = 3 must still give three non-empty
  // clusters, each medoid in its own.
  const std::vector<double> x{0, 0, 0, 0, 5, 5, 0, 1};
  const DistanceMatrix dist(x, 8, 1);
  const KMedoidsResult r = KMedoids(dist, 3);
  for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(r.labels[r.medoids[c]], c);
  EXPECT_NEAR(r.cost, BruteForceOptimum(dist, 3), 1e-12);
  const KMedoidsResult all = KMedoids(dist, 8);
  EXPECT_EQ(all.cost, 0.0);
}

// The ten points of the sklearn golden numbers below.
const std::vector<double> kGoldenPoints{0.0, 0.0, 0.5, 0.2, 0.1, 0.9, 3.0, 3.1, 3.4, 2.8,
                                        2.9, 3.6, 6.0, 0.1, 6.3, 0.4, 5.7, -0.2, 1.5, 1.5};

TEST(Silhouette, MatchesSklearn) {
  // /usr/bin/python3 (sklearn 1.2.1):
  //   X = np.array(kGoldenPoints).reshape(10, 2)
  //   silhouette_score(X, [0,0,0,1,1,1,2,2,2,0])   -> 0.7506890325391569
  //   silhouette_samples(X, [0,0,0,1,1,1,2,2,2,0]) -> the list below
  //   silhouette_score(X, [0,0,1,1,1,1,2,2,2,3])   -> 0.4105382954134682 (a singleton cluster)
  const DistanceMatrix dist(kGoldenPoints, 10, 2);
  const std::vector<std::size_t> labels{0, 0, 0, 1, 1, 1, 2, 2, 2, 0};
  const std::vector<double> want{0.7327554011270374, 0.7488637347122811, 0.7146751966506698, 0.8554804936377437,
                                 0.7996598047964908, 0.8087526039716337, 0.8995146188436809, 0.8496365183534937,
                                 0.8504261163988172, 0.2471258368997192};
  const auto got = SilhouetteSamples(dist, labels, 3);
  for (std::size_t i = 0; i < 10; ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << i;
  EXPECT_NEAR(SilhouetteScore(dist, labels, 3), 0.7506890325391569, 1e-12);
  const std::vector<std::size_t> singleton{0, 0, 1, 1, 1, 1, 2, 2, 2, 3};
  EXPECT_NEAR(SilhouetteScore(dist, singleton, 4), 0.4105382954134682, 1e-12);
}

TEST(Silhouette, MatchesDirectComputation) {
  const std::size_t n = 37, d = 3;
  const auto x = RandomPoints(n, d, 5);
  const DistanceMatrix dist(x, n, d);
  const KMedoidsResult r = KMedoids(dist, 4);
  const auto got = SilhouetteSamples(dist, r.labels, 4);
  for (std::size_t i = 0; i < n; ++i) {
    // a(i), b(i) from the definition, one cluster at a time.
    double a = 0, b = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < 4; ++c) {
      double sum = 0;
      std::size_t size = 0;
      for (std::size_t j = 0; j < n; ++j) {
        if (r.labels[j] != c || j == i) continue;
        const double dx0 = x[i * d] - x[j * d], dx1 = x[i * d + 1] - x[j * d + 1], dx2 = x[i * d + 2] - x[j * d + 2];
        sum += std::sqrt(dx0 * dx0 + dx1 * dx1 + dx2 * dx2);
        ++size;
      }
      if (c == r.labels[i]) a = size > 0 ? sum / static_cast<double>(size) : 0.0;
      else if (size > 0) b = std::min(b, sum / static_cast<double>(size));
    }
    const bool alone = std::count(r.labels.begin(), r.labels.end(), r.labels[i]) == 1;
    EXPECT_NEAR(got[i], alone ? 0.0 : (b - a) / std::max(a, b), 1e-12) << i;
  }
}

TEST(AssignToMedoids, NearestMedoidTiesToTheLowestCluster) {
  const std::vector<double> medoids{0.0, 2.0, 4.0};
  const std::vector<double> points{-1.0, 1.0, 2.9, 3.0, 10.0};
  EXPECT_EQ(AssignToMedoids(points, 5, 1, medoids, 3), (std::vector<std::size_t>{0, 0, 1, 1, 2}));
}

TEST(KMedoidsErrors, BadArgumentsAreClearErrors) {
  const DistanceMatrix dist(kGoldenPoints, 10, 2);
  EXPECT_THROW(KMedoids(dist, 0), InvalidArgument);
  EXPECT_THROW(KMedoids(dist, 11), InvalidArgument);
  const std::vector<std::size_t> one(10, 0);
  EXPECT_THROW(SilhouetteScore(dist, one, 1), InvalidArgument);  // one cluster
  std::vector<std::size_t> each(10);
  for (std::size_t i = 0; i < 10; ++i) each[i] = i;
  EXPECT_THROW(SilhouetteScore(dist, each, 10), InvalidArgument);  // n clusters
  EXPECT_THROW(DistanceMatrix(kGoldenPoints, 11, 2), InvalidArgument);
  std::vector<double> bad = kGoldenPoints;
  bad[5] = std::nan("");
  try {
    DistanceMatrix m(bad, 10, 2);
    FAIL() << "NaN accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("point 2"), std::string::npos) << e.what();
  }
  const std::vector<double> three{0.0, 0.0, 1.0};
  EXPECT_THROW(AssignToMedoids(kGoldenPoints, 10, 2, three, 2), InvalidArgument);
}

}  // namespace
}}  // namespace perfshap
