// Times Pascal Pons' Connect-4 solver (github.com/PascalPons/connect4, not part of khela) on a benchmark file
// the way its blog does: the table reset before each position (not timed), no opening book. Written for khela's
// scripts/peers/connect4-solver.sh; compiled against the solver's own Solver.cpp.
//
//   pons-bench FILE [weak] [limit]
//
// Prints one line: mean_micros mean_nodes mismatches positions.
#include "Solver.hpp"
#include <chrono>
#include <fstream>
#include <iostream>
#include <string>
using namespace GameSolver::Connect4;

int main(int argc, char** argv) {
  if (argc < 2) { std::cerr << "pons-bench FILE [weak] [limit]\n"; return 2; }
  bool weak = argc > 2 && std::string(argv[2]) == "weak";
  long limit = argc > 3 ? std::stol(argv[3]) : 1000000;
  std::ifstream in(argv[1]);
  if (!in) { std::cerr << "cannot read " << argv[1] << "\n"; return 2; }
  Solver solver;
  std::string moves;
  int expected;
  long n = 0, wrong = 0;
  double seconds = 0;
  unsigned long long nodes = 0;
  while (n < limit && in >> moves >> expected) {
    Position P;
    if (P.play(moves) != moves.size()) { std::cerr << "bad line " << n + 1 << "\n"; return 2; }
    solver.reset();
    auto start = std::chrono::steady_clock::now();
    int score = solver.solve(P, weak);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    nodes += solver.getNodeCount();
    // Weakly, the reference still returns a win on the move as its score: compared by sign.
    int sign = (expected > 0) - (expected < 0);
    wrong += weak ? ((score > 0) - (score < 0)) != sign : score != expected;
    n++;
  }
  std::cout << seconds / n * 1e6 << " " << (double)nodes / n << " " << wrong << " " << n << "\n";
  return wrong ? 1 : 0;
}
