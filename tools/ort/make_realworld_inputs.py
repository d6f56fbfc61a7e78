#!/usr/bin/env python3
"""Write seeded random inputs (input_K.pb, graph-input order) for the real-world models.

    python3 make_realworld_inputs.py MODEL_DIR OUT_DIR

For every MODEL_DIR/<stem>.onnx named in SHAPES, writes OUT_DIR/<stem>/input_K.pb.
Shapes follow tests/data/realworld/MANIFEST.txt.
"""
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

AUDIO = {"input": ("f", [1, 512]), "sr": ("sr", []), "state": ("f", [2, 1, 128]),
         "h": ("f", [2, 1, 64]), "c": ("f", [2, 1, 64])}
EMB = {"input_1": ("f", [1, 76, 32, 1])}
SHAPES = {
    "ch_ppocr_mobile_v2.0_cls_infer": {"x": ("img", [1, 3, 48, 192])},
    "derived_ppocr_cls_unsorted": {"x": ("img", [1, 3, 48, 192])},
    "ch_PP-OCRv4_det_infer": {"x": ("img", [1, 3, 64, 64])},
    "ch_PP-OCRv4_rec_infer": {"x": ("img", [1, 3, 48, 160])},
    "silero_vad_legacy": AUDIO,
    "silero_vad_v5": AUDIO,
    "silero_vad_16k_op15": AUDIO,
    "silero_vad_op18_ifless": AUDIO,
    "oww_embedding_model": EMB,
    "derived_oww_embedding_fp16": EMB,
    "derived_oww_embedding_qdq": EMB,
    "derived_oww_embedding_qlinear": EMB,
    "oww_melspectrogram": {"input": ("pcm", [1, 1280])},
    "oww_hey_jarvis_v0.1": {"x.1": ("f", [1, 16, 96])},
}


def make(kind, shape, rng):
    if kind == "sr":
        return np.array(16000, dtype=np.int64)
    if kind == "img":
        return rng.uniform(-1, 1, shape).astype(np.float32)
    if kind == "pcm":
        return (rng.standard_normal(shape) * 1000).astype(np.float32)
    return (rng.standard_normal(shape) * 0.5).astype(np.float32)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    mdir, out = sys.argv[1:]
    for stem, spec in SHAPES.items():
        path = os.path.join(mdir, stem + ".onnx")
        if not os.path.exists(path):
            continue
        g = onnx.load(path, load_external_data=False).graph
        inits = {i.name for i in g.initializer}
        names = [i.name for i in g.input if i.name not in inits]
        rng = np.random.default_rng(1234)
        d = os.path.join(out, stem)
        os.makedirs(d, exist_ok=True)
        for k, n in enumerate(names):
            kind, shape = spec[n]
            with open(os.path.join(d, f"input_{k}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(make(kind, shape, rng), n).SerializeToString())
        print(stem, names)


if __name__ == "__main__":
    main()
