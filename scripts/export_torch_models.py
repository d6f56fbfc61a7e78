#!/usr/bin/env python3
"""Export real PyTorch-exporter ONNX models (random weights, seeded) for the reference tests.

    export_torch_models.py export OUT_DIR [--only NAME,...]
    export_torch_models.py inputs MANIFEST.json NAME MODEL.onnx OUT_DIR

`export` needs torch + torchvision (Debian: python3-torch 1.13, python3-torchvision 0.14; nothing is
downloaded: every torchvision model is built with weights=None). For every model it writes
OUT_DIR/models/NAME.onnx, seeded sample inputs OUT_DIR/inputs/NAME/input_K.pb (graph-input order,
the shapes of the manifest), PyTorch's outputs on them OUT_DIR/torch/NAME/output_K.pb, and
OUT_DIR/manifest.json: per model the file, opset, node count, op
types, and each input's name, dtype, shape (the export's, symbolic dims as names), sample shape and
value kind. Each model is built after torch.manual_seed(its seed), so one model's weights do not
depend on which others are exported. Exports run with grad enabled (no torch.no_grad): PyTorch's
fused attention fast path of nn.TransformerEncoder stays off, as a user's plain export would.
Exit 77 when torch cannot be imported.

`inputs` needs only numpy + onnx: writes seeded input_K.pb for MODEL.onnx (e.g. a fused export
whose open dims were bound), taking each input's static dims from MODEL.onnx and any open dim and
the value kind from the manifest entry NAME.
"""
import json
import os
import sys
import time

SEED_INPUTS = 1234


# ---------------------------------------------------------------------------------------------
# Sample values (numpy only)

def sample(kind, dtype, shape, rng):
    import numpy as np
    if kind == "image":
        return rng.uniform(0.0, 1.0, shape).astype(np.float32)
    if kind == "padding_mask":
        # [batch, seq] True = padded: the last quarter of each sequence (never all of it).
        m = np.zeros(shape, dtype=bool)
        m[..., shape[-1] - max(1, shape[-1] // 4):] = True
        return m
    if kind == "normal":
        return rng.standard_normal(shape).astype(np.float32)
    raise ValueError(f"unknown input kind {kind}")


def write_inputs(entry, shapes, out_dir):
    import numpy as np
    from onnx import numpy_helper
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(SEED_INPUTS)
    for k, (inp, shape) in enumerate(zip(entry["inputs"], shapes)):
        arr = sample(inp["kind"], inp["dtype"], list(shape), rng)
        with open(os.path.join(out_dir, f"input_{k}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(arr, inp["name"]).SerializeToString())


def model_summary(path):
    import onnx
    m = onnx.load(path, load_external_data=False)
    ops = {}

    def walk(g):
        for n in g.node:
            ops[n.op_type] = ops.get(n.op_type, 0) + 1
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    walk(a.g)
                for sg in a.graphs:
                    walk(sg)
    walk(m.graph)
    inits = {i.name for i in m.graph.initializer}
    inputs = []
    for i in m.graph.input:
        if i.name in inits:
            continue
        dims = [d.dim_param if d.dim_param else d.dim_value for d in i.type.tensor_type.shape.dim]
        inputs.append({"name": i.name, "elem_type": i.type.tensor_type.elem_type, "shape": dims})
    opset = max((o.version for o in m.opset_import if o.domain in ("", "ai.onnx")), default=0)
    return {"nodes": sum(ops.values()), "top_level_nodes": len(m.graph.node), "opset": opset,
            "ops": dict(sorted(ops.items())), "graph_inputs": inputs,
            "outputs": [o.name for o in m.graph.output]}


# ---------------------------------------------------------------------------------------------
# The models (torch)

def build_models():
    """NAME -> (seed, opset, builder() -> (module, example args tuple), input specs, output names,
    dynamic_axes or None, what it covers). Input spec: (name, dtype, shape, kind)."""
    import torch
    from torch import nn
    import torchvision

    class Encoder(nn.Module):
        """A tiny BERT-like encoder: embedding-free, padding mask as a bool input."""
        def __init__(self):
            super().__init__()
            layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, dropout=0.1,
                                               batch_first=True)
            self.enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
            self.head = nn.Linear(64, 8)

        def forward(self, x, mask):
            return self.head(self.enc(x, src_key_padding_mask=mask))

    class SpeechGRU(nn.Module):
        """Features [N, 40, T] -> Conv1d -> bidirectional 2-layer GRU -> Linear (per frame logits)."""
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv1d(40, 64, kernel_size=3, padding=1)
            self.gru = nn.GRU(64, 48, num_layers=2, bidirectional=True, batch_first=True)
            self.fc = nn.Linear(96, 30)

        def forward(self, x):
            y = torch.relu(self.conv(x)).transpose(1, 2)
            y, _ = self.gru(y)
            return self.fc(y)

    class TanhRNN(nn.Module):
        """Elman RNN (tanh), sequence-first, initial state as an input, plus a ReLU RNN layer."""
        def __init__(self):
            super().__init__()
            self.rnn = nn.RNN(32, 48, num_layers=1)
            self.rnn2 = nn.RNN(48, 24, nonlinearity="relu")
            self.fc = nn.Linear(24, 10)

        def forward(self, x, h0):
            y, h = self.rnn(x, h0)
            y, _ = self.rnn2(y)
            return self.fc(y), h

    class Conv3dNet(nn.Module):
        """Video clip [N, 3, T, H, W]: Conv3d/BatchNorm3d/ReLU/MaxPool3d, global pool, Linear."""
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(
                nn.Conv3d(3, 16, kernel_size=3, padding=1), nn.BatchNorm3d(16), nn.ReLU(),
                nn.MaxPool3d(kernel_size=(1, 2, 2), stride=(1, 2, 2)),
                nn.Conv3d(16, 32, kernel_size=3, padding=1), nn.ReLU(), nn.BatchNorm3d(32),
                nn.MaxPool3d(kernel_size=2, stride=2),
                nn.Conv3d(32, 32, kernel_size=(3, 1, 1), padding=(1, 0, 0)), nn.BatchNorm3d(32), nn.ReLU(),
                nn.AdaptiveAvgPool3d(1))
            self.fc = nn.Linear(32, 5)

        def forward(self, x):
            return self.fc(torch.flatten(self.features(x), 1))

    class Detector(nn.Module):
        """torchvision detection models take a list of CHW images and return a list of dicts."""
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x):
            out = self.m([x[0]])[0]
            return out["boxes"], out["scores"], out["labels"]

    class Seg(nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x):
            return self.m(x)["out"]

    def mod(m, calib=None):
        """Eval mode. calib(m) runs m on a seeded batch of two: BatchNorm statistics are set from it
        (a default-initialised net has running var 1 and mean 0, and its activations vanish layer
        by layer: ~1e-14 at SSDlite's first head, every score the same 1/91)."""
        m.eval()
        if calib is not None:
            bns = [b for b in m.modules() if isinstance(b, nn.modules.batchnorm._BatchNorm)]
            for b in bns:
                b.reset_running_stats()
                b.momentum = None  # cumulative: the statistics of the calibration batch
                b.train()
            with torch.no_grad():
                calib(m)
            for b in bns:
                b.eval()
        return m

    def images(n, shape):
        return [torch.rand(shape) for _ in range(n)]

    def frcnn():
        m = tv.detection.fasterrcnn_mobilenet_v3_large_320_fpn(
            weights=None, weights_backbone=None, num_classes=21, box_score_thresh=0.0,
            rpn_pre_nms_top_n_test=200, rpn_post_nms_top_n_test=100, box_detections_per_img=20)
        m = mod(m, lambda d: d(images(2, (3, 320, 320))))
        with torch.no_grad():  # class scores apart (init std 0.01 leaves them within 1e-3 of 1/21)
            m.roi_heads.box_predictor.cls_score.weight.mul_(30.0)
        return Detector(m)

    tv = torchvision.models
    return {
        "swin_t": dict(seed=11, opset=17,
                       build=lambda: mod(tv.swin_t(weights=None)),
                       inputs=[("image", "float32", [1, 3, 112, 112], "image")], outputs=["logits"],
                       covers="torchvision Swin-T: shifted-window attention with attention masks, "
                              "LayerNormalization (opset 17), Roll as Slice/Concat, window padding"),
        "transformer_encoder_mask": dict(seed=12, opset=14, build=lambda: mod(Encoder()),
                       inputs=[("x", "float32", [1, 16, 64], "normal"), ("mask", "bool", [1, 16], "padding_mask")],
                       outputs=["y"],
                       covers="nn.TransformerEncoder (2 layers, batch_first) with src_key_padding_mask "
                              "(bool input -> Where/-inf mask), decomposed LayerNorm"),
        "ssdlite320_mobilenet_v3_large": dict(seed=13, opset=11,
                       build=lambda: Detector(mod(tv.detection.ssdlite320_mobilenet_v3_large(
                           weights=None, weights_backbone=None, detections_per_img=50, topk_candidates=100),
                           lambda d: d(images(2, (3, 320, 320))))),
                       inputs=[("images", "float32", [1, 3, 320, 320], "image")],
                       outputs=["boxes", "scores", "labels"],
                       covers="SSDlite detection: anchors, box decoding, TopK, NonMaxSuppression (batched), "
                              "Resize of the input transform, data-dependent output sizes"),
        "fasterrcnn_mobilenet_v3_large_320_fpn": dict(seed=14, opset=11,
                       build=frcnn,
                       inputs=[("images", "float32", [1, 3, 320, 320], "image")],
                       outputs=["boxes", "scores", "labels"],
                       covers="Faster R-CNN + FPN: RPN TopK/NMS, RoiAlign (MultiScaleRoIAlign), "
                              "box coder, batched NMS, ScatterElements, data-dependent shapes (21 classes, 100 proposals)"),
        "speech_gru": dict(seed=15, opset=13, build=lambda: mod(SpeechGRU()),
                       inputs=[("features", "float32", [1, 40, 50], "normal")], outputs=["logits"],
                       covers="Conv1d + 2-layer bidirectional GRU (batch_first) + Linear"),
        "rnn_tanh_relu": dict(seed=16, opset=13, build=lambda: mod(TanhRNN()),
                       inputs=[("x", "float32", [20, 1, 32], "normal"), ("h0", "float32", [1, 1, 48], "normal")],
                       outputs=["y", "h"],
                       covers="nn.RNN tanh with initial state input + nn.RNN relu (ONNX RNN activations)"),
        "conv3d_net": dict(seed=17, opset=13,
                       build=lambda: mod(Conv3dNet(), lambda d: d(torch.randn(2, 3, 8, 32, 32))),
                       inputs=[("clip", "float32", [1, 3, 8, 32, 32], "normal")], outputs=["logits"],
                       covers="Conv3d, BatchNorm3d (folded by the exporter after a Conv3d, kept after a ReLU), MaxPool3d, "
                              "GlobalAveragePool over 3-D, Gemm"),
        "lraspp_mobilenet_v3_large_dyn": dict(seed=18, opset=13,
                       build=lambda: mod(Seg(tv.segmentation.lraspp_mobilenet_v3_large(
                           weights=None, weights_backbone=None, num_classes=6)),
                           lambda d: d(torch.rand(2, 3, 96, 128))),
                       inputs=[("image", "float32", [1, 3, 96, 128], "image")], outputs=["out"],
                       dynamic_axes={"image": {0: "batch", 2: "height", 3: "width"},
                                     "out": {0: "batch", 2: "height", 3: "width"}},
                       covers="LR-ASPP segmentation, MobileNetV3 (HardSwish, SE), Resize to the input "
                              "size from Shape ops; SYMBOLIC batch/height/width"),
    }


def write_torch_outputs(model, entry, in_dir, out_dir):
    import onnx
    import torch
    from onnx import numpy_helper
    args = []
    for k in range(len(entry["inputs"])):
        t = onnx.TensorProto()
        t.ParseFromString(open(os.path.join(in_dir, f"input_{k}.pb"), "rb").read())
        args.append(torch.from_numpy(numpy_helper.to_array(t).copy()))
    model.eval()  # torch.onnx.export restores the module's training flag on every submodule
    with torch.no_grad():
        res = model(*args)
    if isinstance(res, torch.Tensor):
        res = (res,)
    os.makedirs(out_dir, exist_ok=True)
    for k, (r, n) in enumerate(zip(res, entry["outputs"])):
        with open(os.path.join(out_dir, f"output_{k}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(r.detach().numpy(), n).SerializeToString())


def export(out, only):
    try:
        import numpy as np
        import torch
        import torchvision  # noqa: F401
        import onnx  # noqa: F401
    except Exception as e:  # noqa: BLE001
        print(f"torch/torchvision/onnx unavailable ({e}): skipped")
        return 77
    import warnings
    warnings.filterwarnings("ignore")
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    os.makedirs(os.path.join(out, "models"), exist_ok=True)
    specs = build_models()
    names = [n for n in specs if not only or n in only]
    unknown = [n for n in (only or []) if n not in specs]
    if unknown:
        print(f"unknown model(s): {', '.join(unknown)}; known: {', '.join(specs)}")
        return 2
    manifest_path = os.path.join(out, "manifest.json")
    manifest = {"torch": torch.__version__, "torchvision": torchvision.__version__,
                "input_seed": SEED_INPUTS, "models": {}}
    if only and os.path.exists(manifest_path):
        manifest["models"] = json.load(open(manifest_path)).get("models", {})
    status = 0
    for name in names:
        s = specs[name]
        t0 = time.time()
        path = os.path.join(out, "models", name + ".onnx")
        try:
            torch.manual_seed(s["seed"])
            model = s["build"]().eval()
            torch.manual_seed(s["seed"] + 1000)
            example = []
            for (iname, dtype, shape, kind) in s["inputs"]:
                rng = np.random.default_rng(s["seed"])
                example.append(torch.from_numpy(sample(kind, dtype, shape, rng)))
            in_names = [i[0] for i in s["inputs"]]
            # Grad stays enabled on purpose (see the module doc).
            torch.onnx.export(model, tuple(example), path, opset_version=s["opset"],
                              input_names=in_names, output_names=s["outputs"],
                              dynamic_axes=s.get("dynamic_axes"), do_constant_folding=True)
        except Exception as e:  # noqa: BLE001
            msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            print(f"FAIL {name}: export: {type(e).__name__}: {msg}")
            manifest["models"].pop(name, None)
            status = 1
            continue
        summ = model_summary(path)
        entry = {"file": f"models/{name}.onnx", "seed": s["seed"], "covers": s["covers"],
                 "export_seconds": round(time.time() - t0, 1), "bytes": os.path.getsize(path), **summ,
                 "inputs": [{"name": n, "dtype": d, "sample_shape": sh, "kind": k,
                             "shape": next((g["shape"] for g in summ["graph_inputs"] if g["name"] == n), sh)}
                            for (n, d, sh, k) in s["inputs"]]}
        # The exporter drops inputs a model does not read; keep the graph's input order.
        graph_in = [g["name"] for g in summ["graph_inputs"]]
        entry["inputs"] = [i for g in graph_in for i in entry["inputs"] if i["name"] == g]
        write_inputs(entry, [i["sample_shape"] for i in entry["inputs"]], os.path.join(out, "inputs", name))
        # PyTorch's own outputs on the same inputs (a check of the export, not of fwb).
        write_torch_outputs(model, entry, os.path.join(out, "inputs", name), os.path.join(out, "torch", name))
        manifest["models"][name] = entry
        print(f"ok {name}: {summ['nodes']} nodes, opset {summ['opset']}, "
              f"{entry['bytes'] / 1e6:.1f} MB, {entry['export_seconds']} s")
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    return status


def inputs_for(manifest_path, name, model_path, out_dir):
    import onnx
    entry = json.load(open(manifest_path))["models"][name]
    g = onnx.load(model_path, load_external_data=False).graph
    inits = {i.name for i in g.initializer}
    by_name = {i["name"]: i for i in entry["inputs"]}
    spec, shapes = [], []
    for gi in g.input:
        if gi.name in inits:
            continue
        inp = by_name[gi.name]
        dims = [d.dim_value if d.HasField("dim_value") else None for d in gi.type.tensor_type.shape.dim]
        shapes.append([d if d is not None else s for d, s in zip(dims, inp["sample_shape"])])
        spec.append(inp)
    write_inputs({"inputs": spec}, shapes, out_dir)
    print(name, [(i["name"], s) for i, s in zip(spec, shapes)])
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "export":
        only = None
        if len(argv) == 4 and argv[2] == "--only":
            only = [x for x in argv[3].split(",") if x]
        elif len(argv) != 2:
            sys.exit(__doc__)
        return export(argv[1], only)
    if len(argv) == 5 and argv[0] == "inputs":
        return inputs_for(*argv[1:])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
