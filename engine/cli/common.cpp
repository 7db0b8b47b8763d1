// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "common.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <unistd.h>

#include "data/message_text.hpp"
#include "perfshap/blocks/cost.hpp"
#include "perfshap/processes.hpp"
#include "report/format.hpp"
#include "schedule/agreement.hpp"

namespace perfshap { inline namespace v0 { namespace cli {

namespace {
// Model evaluations from which the estimate is printed even without a progress bar: about a
// minute of work at 1e8 a second.
constexpr double kSayEstimateAbove = 1e10;
}  // namespace

namespace {
std::string FormatSeconds(double s) {
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%.1fs", s);
  else std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  return buf;
}
}  // namespace

int ProcessRank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return std::atoi(value);
  }
  return 0;
}

ErrorFate FateOfError(std::exception_ptr error) {
  if (!Processes::Launched()) return ErrorFate::kSay;
  std::shared_ptr<const Processes> world;
  try {
    world = Processes::World();
  } catch (...) {
    return ErrorFate::kSay;
  }
  if (world->size() <= 1) return ErrorFate::kSay;
  // Before the agreement the others learn it there, and rank 0 says it (the one that failed
  // when rank 0 did not: "rank R of N: ..."); after it, a collective's error is every process's.
  if (detail::TellPeersOfFailure(std::move(error), world.get()) || detail::ErrorIsShared())
    return world->rank() == 0 ? ErrorFate::kSay : ErrorFate::kSilent;
  return ErrorFate::kSayAndAbort;
}

void AbortEveryProcess(int code) { detail::AbortProcesses(*Processes::World(), code); }

void WireExecution(ExecutionOptions& exec, bool quiet, const std::string& progress, const std::string& what) {
  // Under mpirun: the processes of the job share the work; only rank 0 speaks.
  if (Processes::Launched()) {
    exec.processes = Processes::World();
    if (exec.processes->rank() != 0) return;
  }
  std::string mode = progress;
  if (quiet) mode = "none";
  if (mode == "auto") mode = ::isatty(STDERR_FILENO) != 0 ? "bar" : "none";
  // The estimate goes with the progress; a long run's estimate is said even without a bar, so a
  // run that will take minutes never starts in silence.
  exec.on_estimate = [mode, quiet](const CostEstimate& e) {
    if (quiet || (mode == "none" && e.model_evaluations < kSayEstimateAbove)) return;
    std::fputs(("perfshap: estimate: " + e.Text() + "\n").c_str(), stderr);
    std::fflush(stderr);
  };
  if (mode == "none") return;
  const bool bar = mode == "bar";
  exec.progress = [bar, what](const Progress& p) {
    const double frac = p.total > 0 ? static_cast<double>(p.done) / static_cast<double>(p.total) : 0.0;
    char line[256];
    if (bar) {
      constexpr int kWidth = 30;
      const int filled = static_cast<int>(std::lround(frac * kWidth));
      std::string cells(static_cast<std::size_t>(filled), '#');
      cells.append(static_cast<std::size_t>(kWidth - filled), '.');
      std::snprintf(line, sizeof line, "\r%s [%s] %5.1f%% %llu/%llu  %.3g/s  ETA %s ", what.c_str(), cells.c_str(),
                    100.0 * frac, static_cast<unsigned long long>(p.done), static_cast<unsigned long long>(p.total),
                    p.rate, FormatSeconds(p.eta_seconds).c_str());
      std::fputs(line, stderr);
      if (p.finished) std::fputs("\n", stderr);
    } else {
      std::snprintf(line, sizeof line, "progress %s %llu/%llu %.1f%% rate %.3g/s eta %s%s\n", what.c_str(),
                    static_cast<unsigned long long>(p.done), static_cast<unsigned long long>(p.total), 100.0 * frac,
                    p.rate, FormatSeconds(p.eta_seconds).c_str(), p.finished ? " done" : "");
      std::fputs(line, stderr);
    }
    std::fflush(stderr);
  };
}

void Say(bool quiet, const std::string& text) {
  if (!quiet && ProcessRank() == 0) std::cout << text << std::flush;
}

void Report(const detail::ReportTarget& target, Reporter reporter) {
  if (target.dir.empty() || ProcessRank() != 0) return;
  detail::RunReporter(reporter, target);
}

std::string OneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string ParseErrorText(const std::string& what) {
  const std::string text = OneLine(what);
  // CLI11's "--cv: At Most 1 required but received 2".
  const std::string given = ": At Most 1 required but received ";
  if (const std::size_t at = text.find(given); at != std::string::npos && at < text.find(' '))
    return text.substr(0, at) + " was given " + text.substr(at + given.size()) + " times; give it once";
  // CLI11's NonNegativeNumber: "--threads: Value V not in range 0.000000 to 1797...(309 digits)".
  const std::string value = ": Value ", range = " not in range ", largest = " to 179769313486231570";
  const std::size_t at = text.find(value), to = text.rfind(largest);
  if (at != std::string::npos && at < text.find(' ') && to != std::string::npos) {
    const std::size_t in = text.rfind(range, to);
    if (in != std::string::npos && in > at) {
      const std::string lo = text.substr(in + range.size(), to - in - range.size());
      return text.substr(0, at) + ": " + detail::Quoted(text.substr(at + value.size(), in - at - value.size())) +
             " is not a number >= " + detail::Fmt("%g", std::strtod(lo.c_str(), nullptr));
    }
  }
  return detail::ShortenLongWords(text);
}

std::string Join(const std::vector<std::string>& items, const std::string& separator) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) s += (i > 0 ? separator : std::string()) + items[i];
  return s;
}

}}}  // namespace perfshap::cli
