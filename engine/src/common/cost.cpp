// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Cost estimates and their limits (perfshap/blocks/cost.hpp): formatting, the machine's memory, and the
// one check every method calls before its first expensive step.
#include "perfshap/blocks/cost.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include <unistd.h>

namespace perfshap { inline namespace v0 {

namespace {

std::string Sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", v);
  return buf;
}

// The cgroup (v2, then v1) memory limit of this process, or 0 when there is none.
double CgroupMemoryLimit() {
  for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(path);
    std::string text;
    if (!(in >> text) || text == "max") continue;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    // cgroup v1 writes a huge number (close to 2^63) for "no limit".
    if (end != text.c_str() && v > 0 && v < 1e18) return v;
  }
  return 0.0;
}

}  // namespace

double CostEstimate::peak_bytes() const noexcept {
  double total = 0.0;
  for (const Part& p : memory) total += p.bytes;
  return total;
}

void CostEstimate::AddMemory(std::string name, double bytes) {
  if (bytes > 0.0) memory.push_back({std::move(name), bytes});
}

std::string CostEstimate::Text() const {
  std::string s = method + ": " + work;
  if (model_evaluations > 0.0) s += " = " + Sci(model_evaluations) + " model evaluations";
  s += ", " + FormatBytes(peak_bytes()) + " of memory";
  std::vector<Part> parts = memory;
  std::stable_sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return a.bytes > b.bytes; });
  if (parts.size() > 3) parts.resize(3);  // the largest parts say where the memory goes
  if (!parts.empty()) {
    s += " (";
    for (std::size_t i = 0; i < parts.size(); ++i)
      s += (i > 0 ? ", " : "") + parts[i].name + " " + FormatBytes(parts[i].bytes);
    s += ")";
  }
  return s;
}

CostEstimate CostEstimate::Sequence(std::string method, const std::vector<CostEstimate>& steps) {
  CostEstimate e;
  e.method = std::move(method);
  const CostEstimate* largest = nullptr;
  for (const CostEstimate& step : steps) {
    e.work += (e.work.empty() ? "" : "; ") + step.method + " " + step.work;
    e.model_evaluations += step.model_evaluations;
    e.units += step.units;
    if (largest == nullptr || step.peak_bytes() > largest->peak_bytes()) largest = &step;
  }
  if (largest != nullptr) e.memory = largest->memory;
  return e;
}

double DefaultMaxMemory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGE_SIZE);
  double total = pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
  const double cgroup = CgroupMemoryLimit();
  if (cgroup > 0.0 && (total == 0.0 || cgroup < total)) total = cgroup;
  if (total == 0.0) total = 4.0 * 1024 * 1024 * 1024;  // unknown: assume a small machine
  return 0.75 * total;
}

double ParseMemorySize(const std::string& text) {
  const auto bad = [&] {
    return InvalidArgument("memory size '" + text.substr(0, 40) +
                               "' is not a size; write bytes or a number with K, M, G or T (powers of 1024), e.g. 8G",
                           {"max_memory"});
  };
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  const char* begin = text.c_str() + i;
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(value)) throw bad();
  std::string unit(end);
  unit.erase(std::remove_if(unit.begin(), unit.end(), [](unsigned char c) { return std::isspace(c) != 0; }),
             unit.end());
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && unit.back() == 'b') unit.pop_back();           // "gb" -> "g"
  if (unit.size() > 1 && unit.back() == 'i') unit.pop_back();           // "gi" -> "g"
  double scale = 1.0;
  if (unit.empty() || unit == "b") scale = 1.0;
  else if (unit == "k") scale = 1024.0;
  else if (unit == "m") scale = 1024.0 * 1024.0;
  else if (unit == "g") scale = 1024.0 * 1024.0 * 1024.0;
  else if (unit == "t") scale = 1024.0 * 1024.0 * 1024.0 * 1024.0;
  else throw bad();
  if (!(value > 0.0)) throw bad();
  return value * scale;
}

std::string FormatBytes(double bytes) {
  char buf[48];
  const double k = 1024.0;
  if (bytes >= k * k * k * k * k) std::snprintf(buf, sizeof buf, "%.3g PB", bytes / (k * k * k * k * k));
  else if (bytes >= k * k * k * k) std::snprintf(buf, sizeof buf, "%.3g TB", bytes / (k * k * k * k));
  else if (bytes >= k * k * k) std::snprintf(buf, sizeof buf, "%.3g GB", bytes / (k * k * k));
  else if (bytes >= k * k) std::snprintf(buf, sizeof buf, "%.3g MB", bytes / (k * k));
  else if (bytes >= k) std::snprintf(buf, sizeof buf, "%.3g KB", bytes / k);
  else std::snprintf(buf, sizeof buf, "%.0f bytes", bytes);
  return buf;
}

std::string FormatCount(double count) {
  if (count >= 2.0 && count <= 4611686018427387904.0) {  // 2^62
    int e = 0;
    const double m = std::frexp(count, &e);
    if (m == 0.5 && e - 1 >= 10) return "2^" + std::to_string(e - 1);
  }
  char buf[48];
  if (count < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", count);
    std::string digits(buf), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
      if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
      out += digits[i];
    }
    return out;
  }
  std::snprintf(buf, sizeof buf, "about %.2g", count);
  return buf;
}

void CheckCost(const CostEstimate& estimate, const ExecutionOptions& execution, const std::string& remedy,
               std::vector<std::string> remedy_options) {
  const double max_memory =
      execution.limits.max_memory_bytes > 0.0 ? execution.limits.max_memory_bytes : DefaultMaxMemory();
  const double max_evaluations = execution.limits.max_model_evaluations > 0.0 ? execution.limits.max_model_evaluations
                                                                               : kDefaultMaxModelEvaluations;
  const double bytes = estimate.peak_bytes();
  if (!(bytes <= max_memory)) {
    remedy_options.push_back("max_memory");
    throw ResourceError(estimate.Text() + ": more than the memory limit of " + FormatBytes(max_memory) + "; " +
                            remedy + (execution.limits.max_memory_bytes > 0.0 ? "" : ", or raise the limit"),
                        std::move(remedy_options));
  }
  if (!(estimate.model_evaluations <= max_evaluations)) {
    remedy_options.push_back("max_model_evaluations");
    throw ResourceError(estimate.Text() + ": more than the limit of " + Sci(max_evaluations) +
                            " model evaluations (it would not finish); " + remedy,
                        std::move(remedy_options));
  }
  // An accepted estimate goes to the front end (printed with the progress); a refused one is in
  // the refusal's message.
  if (execution.on_estimate) execution.on_estimate(estimate);
}

}}  // namespace perfshap
