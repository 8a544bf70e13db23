// Imports an ONNX model with qnnc and prints its ops by kind, then checks
// the text form round-trips. Usage: model_info MODEL.onnx
#include <iostream>
#include <map>

#include "frontend/onnx/import.h"
#include "ir/structural_equal.h"
#include "ir/text_parser.h"
#include "ir/text_printer.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: model_info MODEL.onnx\n";
    return 2;
  }
  auto graph = qnnc::frontend::onnx::ImportOnnxFile(argv[1]);
  if (!graph.ok()) {
    std::cerr << "error: " << graph.status().message() << "\n";
    return 2;
  }
  std::map<std::string, int> kinds;
  for (const qnnc::ir::Node* n : (*graph)->nodes()) ++kinds[n->op()];
  for (const auto& [kind, count] : kinds) std::cout << count << " " << kind << "\n";
  auto reparsed = qnnc::ir::ParseGraph(qnnc::ir::PrintGraph(**graph));
  if (!reparsed.ok() || !qnnc::ir::StructuralEqual(**graph, **reparsed)) {
    std::cerr << "error: the text form did not round-trip\n";
    return 1;
  }
  std::cout << "text form round-trips: ok\n";
  return 0;
}
