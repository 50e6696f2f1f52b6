// ecmpsim_docgen ROOT: writes every generated reference page (sim/config/reference_docs.h)
// and the published-results catalogue (sim/report/published.h) under the repository root ROOT. The `docs` build target runs it on the
// source tree; tests/reference_docs_test.cpp checks the committed pages.
#include <exception>
#include <iostream>

#include "sim/base/error.h"
#include "sim/base/output_file.h"
#include "sim/config/reference_docs.h"
#include "sim/app/catalogue.h"
#include "sim/report/published.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: ecmpsim_docgen REPOSITORY_ROOT\n";
    return 2;
  }
  try {
    for (const auto& page : ecmpsim::generated_pages()) {
      const std::string path = std::string(argv[1]) + "/" + std::string(page.path);
      ecmpsim::write_output(path, page.render(), std::cout);
      std::cout << "wrote " << path << "\n";
    }
    // The catalogue of published results, measured on this commit.
    const std::string published = std::string(argv[1]) + "/docs/published.md";
    ecmpsim::write_output(published, ecmpsim::published_page(ecmpsim::app::run_catalogue(argv[1])), std::cout);
    std::cout << "wrote " << published << "\n";
  } catch (const ecmpsim::InputError& e) {
    std::cerr << "ecmpsim_docgen: " << e.describe() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "ecmpsim_docgen: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
