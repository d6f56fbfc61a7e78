#!/usr/bin/env python3
"""Export PyTorch models that no test, manifest or calibration of this project uses, for
bench/sim_accuracy.sh's "models it was not tuned on" rows (random weights, seeded; nothing downloaded).

    /usr/bin/python3 bench/export_untuned_models.py OUT_DIR [--set 2]

Set 1 (the default) was used while the CPU cost model was worked on (docs/sim_accuracy.md says which of
its rows were looked at); set 2 was exported afterwards and only measured.

Needs Debian's python3-torch (1.13) and python3-torchvision (0.14). Writes OUT_DIR/NAME.onnx (opset 13).
Exit 77 when torch cannot be imported.
"""
import os
import sys


def main():
    args = sys.argv[1:]
    second = args[1:] == ["--set", "2"]
    if len(args) not in (1, 3) or (len(args) == 3 and not second):
        print(__doc__, file=sys.stderr)
        return 2
    out = args[0]
    try:
        import torch
        import torchvision
    except ImportError as e:
        print(f"no torch/torchvision here ({e}): nothing exported", file=sys.stderr)
        return 77
    os.makedirs(out, exist_ok=True)
    if second:
        return export_second_set(torch, torchvision, out)
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
    export_images(torch, models, out, seed=7)

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


def export_images(torch, models, out, seed):
    """Each NAME: (constructor, input shape) as OUT/NAME.onnx, opset 13, random weights from `seed`."""
    for name, (make, shape) in models.items():
        torch.manual_seed(seed)
        net = make().eval()
        torch.onnx.export(net, torch.rand(*shape), os.path.join(out, name + ".onnx"), opset_version=13,
                          input_names=["x"], output_names=["y"])
        print("exported", name, flush=True)


def export_second_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "efficientnet_b0": (lambda: tv.efficientnet_b0(weights=None), (1, 3, 224, 224)),
        "shufflenet_v2_x1_0": (lambda: tv.shufflenet_v2_x1_0(weights=None), (1, 3, 224, 224)),
        "regnet_y_400mf": (lambda: tv.regnet_y_400mf(weights=None), (1, 3, 224, 224)),
        "googlenet": (lambda: tv.googlenet(weights=None, aux_logits=False, init_weights=True), (1, 3, 224, 224)),
        "resnet18": (lambda: tv.resnet18(weights=None), (1, 3, 224, 224)),
        "wide_resnet50_2": (lambda: tv.wide_resnet50_2(weights=None), (1, 3, 160, 160)),
    }
    export_images(torch, models, out, seed=11)

    class Encoder(torch.nn.Module):  # a 4-layer GELU transformer encoder over 128 tokens
        def __init__(self):
            super().__init__()
            layer = torch.nn.TransformerEncoderLayer(256, 4, 1024, activation="gelu", batch_first=True)
            self.t = torch.nn.TransformerEncoder(layer, 4, enable_nested_tensor=False)

        def forward(self, x):
            return self.t(x)

    class Tagger(torch.nn.Module):  # a bidirectional LSTM tagger on int64 tokens
        def __init__(self):
            super().__init__()
            self.e = torch.nn.Embedding(5000, 100)
            self.l = torch.nn.LSTM(100, 128, bidirectional=True, batch_first=True)
            self.o = torch.nn.Linear(256, 20)

        def forward(self, t):
            h, _ = self.l(self.e(t))
            return self.o(h)

    torch.manual_seed(11)
    # Eval mode (no dropout) with autograd on: the encoder's fused fast path stays off, and the file holds
    # plain MatMul, Softmax, Erf and LayerNorm pieces.
    enc = Encoder().eval()
    torch.onnx.export(enc, torch.rand(1, 128, 256), os.path.join(out, "gelu_encoder.onnx"), opset_version=13,
                      input_names=["x"], output_names=["y"])
    print("exported gelu_encoder", flush=True)
    torch.manual_seed(11)
    torch.onnx.export(Tagger().eval(), torch.randint(0, 5000, (1, 48)), os.path.join(out, "lstm_tagger.onnx"),
                      opset_version=13, input_names=["t"], output_names=["y"])
    print("exported lstm_tagger", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
