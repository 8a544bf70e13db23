"""From a model family to a float ONNX model: random weights from a seed,
BatchNorm statistics re-estimated, then torch.onnx.export."""
import io
import warnings

import onnx
import torch
import torch.nn as nn

# BatchNorm gamma ~ U(BN_GAMMA), beta ~ N(BN_BETA): mostly positive
# pre-activations keep these random nets from amplifying small perturbations
# (quantization noise, rounding differences) the way zero-mean ones do.
BN_GAMMA = (0.5, 1.0)
BN_BETA = (0.5, 0.5)


def build_torch_model(builder, shape, seed):
    """Random weights (Linear ~ N(0, 1/fan_in)); BatchNorm gamma/beta
    randomized and running statistics re-estimated on random batches
    (cumulative average), then eval mode."""
    torch.manual_seed(seed)
    model = builder()
    for m in model.modules():
        if isinstance(m, nn.Linear):  # torchvision's inits give logits of ~0.01
            nn.init.normal_(m.weight, 0.0, m.in_features ** -0.5)
            nn.init.normal_(m.bias, 0.0, 0.1)
        elif isinstance(m, nn.BatchNorm2d):
            nn.init.uniform_(m.weight, *BN_GAMMA)
            nn.init.normal_(m.bias, *BN_BETA)
            m.reset_running_stats()
            m.momentum = None
    model.train()
    with torch.no_grad():
        for _ in range(4):
            model(torch.rand((8,) + shape[1:]) * 2 - 1)
    return model.eval()


def export(model, shape, opset):
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, torch.zeros(shape), buf, opset_version=opset, do_constant_folding=True,
                          input_names=["input"], output_names=["output"])
    return onnx.load_from_string(buf.getvalue())
