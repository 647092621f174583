#include "cli/Cli.hpp"

int main(int argc, char** argv) {
  return mapsim::cli::main(argc, argv);
}
