"""The parts of scripts/make_zoo_models.py (its docstring has the details):
  models     the torchvision model families and MODELS, the list built
  builder    random weights, BatchNorm re-estimated, torch.onnx.export
  evaluator  a small numpy evaluator of ONNX graphs
  simplify   Identity removed, constants and shape arithmetic folded
  quantize   calibration and the QDQ quantizer (as ONNX Runtime's)
  report     op histograms, output comparisons and OUTDIR/README.md
"""
