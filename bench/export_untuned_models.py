#!/usr/bin/env python3
"""Export PyTorch models that no test, manifest or calibration of this project uses, for
bench/sim_accuracy.sh's "models it was not tuned on" rows (random weights, seeded; nothing downloaded).

    /usr/bin/python3 bench/export_untuned_models.py OUT_DIR

Needs Debian's python3-torch (1.13) and python3-torchvision (0.14). Writes OUT_DIR/NAME.onnx (opset 13).
Exit 77 when torch cannot be imported.
"""
import os
import sys


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    try:
        import torch
        import torchvision
    except ImportError as e:
        print(f"no torch/torchvision here ({e}): nothing exported", file=sys.stderr)
        return 77
    os.makedirs(out, exist_ok=True)
    tv = torchvision.models
    models = {
        "squeezenet1_1": (lambda: tv.squeezenet1_1(weights=None), (1, 3, 224, 224)),
        "densenet121": (lambda: tv.densenet121(weights=None), (1, 3, 224, 224)),
        "mnasnet1_0": (lambda: tv.mnasnet1_0(weights=None), (1, 3, 224, 224)),
        "resnext50_32x4d": (lambda: tv.resnext50_32x4d(weights=None), (1, 3, 224, 224)),
        "convnext_tiny": (lambda: tv.convnext_tiny(weights=None), (1, 3, 224, 224)),
        "mobilenet_v3_large": (lambda: tv.mobilenet_v3_large(weights=None), (1, 3, 224, 224)),
        "fcn_resnet50_small": (lambda: tv.segmentation.fcn_resnet50(weights=None, weights_backbone=None, aux_loss=False),
                               (1, 3, 256, 256)),
    }
    for name, (make, shape) in models.items():
        torch.manual_seed(7)
        net = make().eval()
        torch.onnx.export(net, torch.rand(*shape), os.path.join(out, name + ".onnx"), opset_version=13,
                          input_names=["x"], output_names=["y"])
        print("exported", name, flush=True)

    class GruLm(torch.nn.Module):  # a 2-layer GRU language model on int64 tokens
        def __init__(self):
            super().__init__()
            self.e = torch.nn.Embedding(1000, 128)
            self.g = torch.nn.GRU(128, 256, num_layers=2, batch_first=True)
            self.o = torch.nn.Linear(256, 1000)

        def forward(self, t):
            h, _ = self.g(self.e(t))
            return self.o(h)

    torch.manual_seed(7)
    torch.onnx.export(GruLm().eval(), torch.randint(0, 1000, (1, 32)), os.path.join(out, "gru_lm.onnx"),
                      opset_version=13, input_names=["t"], output_names=["y"])
    print("exported gru_lm", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
