// YOLOv5s (depth 0.33, width 0.50) as export.py writes it without model.fuse(): every Conv module is
// Conv -> BatchNormalization -> Sigmoid -> Mul (SiLU). The stem is the v5.0 Focus (four strided Slices and
// a Concat); the rest follows v6.x: C3 blocks, SPPF, a PAN neck with nearest Resize, and the Detect head
// with its box decode (Sigmoid, Split, grid/anchor arithmetic) into one [batch, boxes, 85] output.
// The default input is 320x320 to keep tests fast; upstream exports at 640.
#include <limits>

#include "core/zoo/ZooModels.h"

namespace fw::zoo {
namespace {

constexpr int64_t kClasses = 80;
constexpr int64_t kAnchors = 3;
constexpr int64_t kOutputs = kClasses + 5;  // x, y, w, h, objectness, classes

// YOLOv5 Conv module: conv (no bias), bn (eps 1e-3), act (SiLU).
ValueId cbs(ZooBuilder& b, ValueId x, int64_t inC, int64_t outC, int64_t k, int64_t s,
            const std::string& name) {
  auto sc = b.scope(name);
  x = b.conv(x, {.inC = inC, .outC = outC, .kernel = k, .stride = s}, "conv");
  x = b.bn(x, outC, "bn", 1e-3f);
  return b.silu(x, "act");
}

ValueId c3(ZooBuilder& b, ValueId x, int64_t inC, int64_t outC, int64_t n, bool shortcut,
           const std::string& name) {
  auto sc = b.scope(name);
  const int64_t hidden = outC / 2;
  ValueId y = cbs(b, x, inC, hidden, 1, 1, "cv1");
  {
    auto ms = b.scope("m");
    for (int64_t i = 0; i < n; ++i) {
      auto bs = b.scope(std::to_string(i));
      ValueId z = cbs(b, y, hidden, hidden, 1, 1, "cv1");
      z = cbs(b, z, hidden, hidden, 3, 1, "cv2");
      y = shortcut ? b.op("Add", {y, z}, {}, "add") : z;
    }
  }
  ValueId skip = cbs(b, x, inC, hidden, 1, 1, "cv2");
  ValueId cat = b.op("Concat", {y, skip}, attrs({Attribute::makeInt("axis", 1)}), "concat");
  return cbs(b, cat, 2 * hidden, outC, 1, 1, "cv3");
}

ValueId sppf(ZooBuilder& b, ValueId x, int64_t inC, int64_t outC, const std::string& name) {
  auto sc = b.scope(name);
  const int64_t hidden = inC / 2;
  x = cbs(b, x, inC, hidden, 1, 1, "cv1");
  const Attributes pool =
      attrs({Attribute::makeInt("ceil_mode", 0), Attribute::makeInts("dilations", {1, 1}),
             Attribute::makeInts("kernel_shape", {5, 5}), Attribute::makeInts("pads", {2, 2, 2, 2}),
             Attribute::makeInts("strides", {1, 1})});
  ValueId y1 = b.op("MaxPool", {x}, pool, "m");
  ValueId y2 = b.op("MaxPool", {y1}, pool, "m");
  ValueId y3 = b.op("MaxPool", {y2}, pool, "m");
  ValueId cat = b.op("Concat", {x, y1, y2, y3}, attrs({Attribute::makeInt("axis", 1)}), "concat");
  return cbs(b, cat, 4 * hidden, outC, 1, 1, "cv2");
}

ValueId focus(ZooBuilder& b, ValueId x, int64_t outC, const std::string& name) {
  auto sc = b.scope(name);
  constexpr int64_t kEnd = std::numeric_limits<int64_t>::max();
  ValueId ends = b.constI64("ends", {kEnd, kEnd});
  ValueId axes = b.constI64("axes", {2, 3});
  ValueId steps = b.constI64("steps", {2, 2});
  // torch.cat([x[..., ::2, ::2], x[..., 1::2, ::2], x[..., ::2, 1::2], x[..., 1::2, 1::2]], 1)
  const int64_t starts[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
  std::vector<ValueId> parts;
  for (int k = 0; k < 4; ++k) {
    ValueId st = b.constI64("starts" + std::to_string(k), {starts[k][0], starts[k][1]});
    parts.push_back(b.op("Slice", {x, st, ends, axes, steps}, {}, "slice"));
  }
  ValueId cat = b.op("Concat", parts, attrs({Attribute::makeInt("axis", 1)}), "concat");
  return cbs(b, cat, 12, outC, 3, 1, "conv");
}

ValueId upsample(ZooBuilder& b, ValueId x, const std::string& name) {
  ValueId scales = b.sharedConstant("const.upsample_scales", Tensor::floats({4}, {1.f, 1.f, 2.f, 2.f}));
  return b.op("Resize", {x, kNoId, scales},
              attrs({Attribute::makeString("coordinate_transformation_mode", "asymmetric"),
                     Attribute::makeFloat("cubic_coeff_a", -0.75f), Attribute::makeString("mode", "nearest"),
                     Attribute::makeString("nearest_mode", "floor")}),
              name);
}

ValueId concat(ZooBuilder& b, std::vector<ValueId> xs, const std::string& name) {
  return b.op("Concat", std::move(xs), attrs({Attribute::makeInt("axis", 1)}), name);
}

// One Detect level: 1x1 conv to 3*85 channels, [b, 3, 85, ny, nx] -> [b, 3, ny, nx, 85], decode.
ValueId detectLevel(ZooBuilder& b, ValueId x, int64_t inC, int64_t level, int64_t batch, int64_t ny,
                    int64_t nx, int64_t stride, const float anchors[3][2]) {
  ValueId y;
  {
    auto ms = b.scope("m");  // model.24.m.<level>
    y = b.conv(x, {.inC = inC, .outC = kAnchors * kOutputs, .kernel = 1, .bias = true},
               std::to_string(level));
  }
  auto sc = b.scope("level" + std::to_string(level));
  y = b.op("Reshape", {y, b.constI64("view_shape", {batch, kAnchors, kOutputs, ny, nx})});
  y = b.op("Transpose", {y}, attrs({Attribute::makeInts("perm", {0, 1, 3, 4, 2})}));
  y = b.op("Sigmoid", {y});
  auto parts =
      b.opN("Split", {y, b.sharedConstant("const.detect_split", Tensor::int64s({3}, {2, 2, kClasses + 1}))},
            attrs({Attribute::makeInt("axis", 4)}), "split", 3);
  // grid = (x, y) - 0.5 and anchor_grid = anchor in pixels, both expanded to [1, 3, ny, nx, 2].
  std::vector<float> grid, anchorGrid;
  grid.reserve(size_t(kAnchors * ny * nx * 2));
  anchorGrid.reserve(grid.capacity());
  for (int64_t a = 0; a < kAnchors; ++a)
    for (int64_t j = 0; j < ny; ++j)
      for (int64_t i = 0; i < nx; ++i) {
        grid.push_back(float(i) - 0.5f);
        grid.push_back(float(j) - 0.5f);
        anchorGrid.push_back(anchors[a][0]);
        anchorGrid.push_back(anchors[a][1]);
      }
  ValueId gridT = b.constant("grid", Tensor::floats({1, kAnchors, ny, nx, 2}, grid));
  ValueId anchorT = b.constant("anchor_grid", Tensor::floats({1, kAnchors, ny, nx, 2}, anchorGrid));
  ValueId two = b.sharedConstant("const.two", Tensor::scalarFloat(2.0f));
  ValueId xy = b.op("Mul", {parts[0], two}, {}, "xy_scale");
  xy = b.op("Add", {xy, gridT}, {}, "xy_grid");
  xy = b.op("Mul", {xy, b.scalarF("stride", float(stride))}, {}, "xy_stride");
  ValueId wh = b.op("Mul", {parts[1], two}, {}, "wh_scale");
  wh = b.op("Pow", {wh, two}, {}, "wh_square");
  wh = b.op("Mul", {wh, anchorT}, {}, "wh_anchor");
  ValueId out = b.op("Concat", {xy, wh, parts[2]}, attrs({Attribute::makeInt("axis", 4)}), "concat");
  return b.op("Reshape", {out, b.constI64("out_shape", {batch, kAnchors * ny * nx, kOutputs})});
}

}  // namespace

Result<Model> buildYoloV5s(const ZooParams& p) {
  FW_ASSIGN_OR_RETURN(int64_t image, param("yolov5s", "image", p.image));
  if (image % 32 != 0)
    return Error::badInput("zoo model yolov5s: --image must be a multiple of 32 (the P5 stride), got " +
                           std::to_string(image));
  ZooBuilder b("yolov5s", p.seed);
  ValueId x = b.input("input", DType::Float32, {p.batch, 3, image, image});
  auto model = b.scope("model");
  // Backbone.
  x = focus(b, x, 32, "0");
  x = cbs(b, x, 32, 64, 3, 2, "1");
  x = c3(b, x, 64, 64, 1, true, "2");
  x = cbs(b, x, 64, 128, 3, 2, "3");
  ValueId p3 = c3(b, x, 128, 128, 2, true, "4");
  x = cbs(b, p3, 128, 256, 3, 2, "5");
  ValueId p4 = c3(b, x, 256, 256, 3, true, "6");
  x = cbs(b, p4, 256, 512, 3, 2, "7");
  x = c3(b, x, 512, 512, 1, true, "8");
  x = sppf(b, x, 512, 512, "9");
  // Neck (top-down, then bottom-up).
  ValueId h10 = cbs(b, x, 512, 256, 1, 1, "10");
  x = concat(b, {upsample(b, h10, "11"), p4}, "12");
  x = c3(b, x, 512, 256, 1, false, "13");
  ValueId h14 = cbs(b, x, 256, 128, 1, 1, "14");
  x = concat(b, {upsample(b, h14, "15"), p3}, "16");
  ValueId out3 = c3(b, x, 256, 128, 1, false, "17");
  x = concat(b, {cbs(b, out3, 128, 128, 3, 2, "18"), h14}, "19");
  ValueId out4 = c3(b, x, 256, 256, 1, false, "20");
  x = concat(b, {cbs(b, out4, 256, 256, 3, 2, "21"), h10}, "22");
  ValueId out5 = c3(b, x, 512, 512, 1, false, "23");
  // Detect.
  static const float kAnchorPx[3][3][2] = {
      {{10, 13}, {16, 30}, {33, 23}}, {{30, 61}, {62, 45}, {59, 119}}, {{116, 90}, {156, 198}, {373, 326}}};
  ValueId det;
  {
    auto ds = b.scope("24");
    const ValueId levels[3] = {out3, out4, out5};
    const int64_t channels[3] = {128, 256, 512};
    std::vector<ValueId> outs;
    for (int64_t i = 0; i < 3; ++i) {
      const int64_t stride = int64_t{8} << i;
      outs.push_back(detectLevel(b, levels[i], channels[i], i, p.batch, image / stride, image / stride,
                                 stride, kAnchorPx[i]));
    }
    det = b.op("Concat", outs, attrs({Attribute::makeInt("axis", 1)}), "concat", "output");
  }
  return b.finish({det}, "YOLOv5s (Focus stem, v6 C3/SPPF/Detect, unfused Conv/BatchNormalization/SiLU), " +
                             std::to_string(image) + "x" + std::to_string(image) + " input, 80 classes");
}

}  // namespace fw::zoo
