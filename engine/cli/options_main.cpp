// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// perfshap_options: writes the declarations of every subcommand's options as JSON (the build
// runs it into the Python package as perfshap/_options.json), so that the Python package checks
// its keywords against the command line's own declarations (names, types, ranges) without the
// Python module linking the command line.
//   perfshap_options FILE
#include <fstream>
#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: perfshap_options FILE\n";
    return 2;
  }
  std::ofstream out(argv[1], std::ios::binary);
  out << perfshap::cli::CommandOptionsJson() << "\n";
  out.close();
  if (!out) {
    std::cerr << "perfshap_options: cannot write " << argv[1] << "\n";
    return 1;
  }
  return 0;
}
