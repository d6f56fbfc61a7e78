#include "core/onnx/OnnxTensor.h"

#include <filesystem>
#include <fstream>

namespace fw::onnxio {

namespace {

template <class Dst, class Src>
std::vector<uint8_t> packAs(const Src& field, size_t n) {
  std::vector<uint8_t> bytes(n * sizeof(Dst));
  auto* out = reinterpret_cast<Dst*>(bytes.data());
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<Dst>(field.Get(static_cast<int>(i)));
  return bytes;
}

Result<std::string> readExternal(const onnx::TensorProto& tp, const std::string& baseDir,
                                 const std::string& where) {
  namespace fs = std::filesystem;
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto& kv : tp.external_data()) {
    try {
      if (kv.key() == "location") location = kv.value();
      else if (kv.key() == "offset") offset = std::stoll(kv.value());
      else if (kv.key() == "length") length = std::stoll(kv.value());
    } catch (const std::exception&) {
      return Error::badInput(where + ": external_data '" + kv.key() + "' is not a number: '" +
                             kv.value() + "'");
    }
  }
  if (location.empty()) return Error::badInput(where + ": external data without a 'location'");
  if (baseDir.empty())
    return Error::badInput(where + ": external data '" + location +
                           "' cannot be resolved (model was not read from a file)");
  fs::path loc(location);
  if (loc.is_absolute())
    return Error::badInput(where + ": external data location '" + location +
                           "' is absolute; only paths inside the model's folder are allowed");
  std::error_code ec;
  fs::path base = fs::weakly_canonical(fs::path(baseDir), ec);
  fs::path full = fs::weakly_canonical(base / loc, ec);
  auto rel = full.lexically_relative(base);
  if (ec || rel.empty() || *rel.begin() == "..")
    return Error::badInput(where + ": external data location '" + location +
                           "' leaves the model's folder");
  std::ifstream in(full, std::ios::binary);
  if (!in) return Error::badInput(where + ": external data file '" + full.string() + "' not found");
  in.seekg(0, std::ios::end);
  const int64_t size = static_cast<int64_t>(in.tellg());
  if (offset < 0 || offset > size)
    return Error::badInput(where + ": external data offset " + std::to_string(offset) +
                           " beyond end of '" + location + "' (" + std::to_string(size) + " bytes)");
  if (length < 0) length = size - offset;
  if (offset + length > size)
    return Error::badInput(where + ": external data '" + location + "' is truncated: needs " +
                           std::to_string(offset + length) + " bytes, has " + std::to_string(size));
  std::string data(static_cast<size_t>(length), '\0');
  in.seekg(offset);
  in.read(data.data(), length);
  if (!in) return Error::badInput(where + ": cannot read external data '" + location + "'");
  return data;
}

}  // namespace

Result<Tensor> tensorFromProto(const onnx::TensorProto& tp, const std::string& baseDir,
                               const std::string& where) {
  auto dt = dtypeFromInt(tp.data_type());
  if (!dt || *dt == DType::Undefined)
    return Error::badInput(where + ": unsupported tensor data_type " + std::to_string(tp.data_type()));
  std::vector<int64_t> dims(tp.dims().begin(), tp.dims().end());
  int64_t numel = 1;
  for (int64_t d : dims) {
    if (d < 0) return Error::badInput(where + ": negative dimension " + std::to_string(d));
    if (d > 0 && numel > (int64_t{1} << 40) / d)
      return Error::badInput(where + ": tensor is implausibly large");
    numel *= d;
  }
  const size_t n = static_cast<size_t>(numel);
  if (*dt == DType::String) {
    if (tp.string_data_size() != static_cast<int>(n))
      return Error::badInput(where + ": string tensor has " + std::to_string(tp.string_data_size()) +
                             " elements, shape needs " + std::to_string(n));
    return Tensor(dims, std::vector<std::string>(tp.string_data().begin(), tp.string_data().end()));
  }
  const size_t esize = dtypeSize(*dt);
  const size_t want = n * esize;
  auto sizeError = [&](size_t have, const char* field) {
    return Error::badInput(where + ": " + field + " holds " + std::to_string(have) +
                           " bytes/elements but shape " + Shape::ofInts(dims).str() + " of " +
                           std::string(dtypeName(*dt)) + " needs " + std::to_string(want) + " bytes");
  };
  if (tp.data_location() == onnx::TensorProto_DataLocation_EXTERNAL) {
    auto bytes = readExternal(tp, baseDir, where);
    if (!bytes.ok()) return bytes.error();
    if (bytes->size() != want) return sizeError(bytes->size(), "external data");
    return Tensor(*dt, dims, std::vector<uint8_t>(bytes->begin(), bytes->end()));
  }
  if (tp.has_raw_data()) {
    if (tp.raw_data().size() != want) return sizeError(tp.raw_data().size(), "raw_data");
    return Tensor(*dt, dims, std::vector<uint8_t>(tp.raw_data().begin(), tp.raw_data().end()));
  }
  auto check = [&](int have, size_t mult = 1) -> bool { return static_cast<size_t>(have) == n * mult; };
  switch (*dt) {
    case DType::Float32:
      if (!check(tp.float_data_size())) return sizeError(static_cast<size_t>(tp.float_data_size()), "float_data");
      return Tensor(*dt, dims, packAs<float>(tp.float_data(), n));
    case DType::Complex64:
      if (!check(tp.float_data_size(), 2)) return sizeError(static_cast<size_t>(tp.float_data_size()), "float_data");
      return Tensor(*dt, dims, packAs<float>(tp.float_data(), 2 * n));
    case DType::Float64:
      if (!check(tp.double_data_size())) return sizeError(static_cast<size_t>(tp.double_data_size()), "double_data");
      return Tensor(*dt, dims, packAs<double>(tp.double_data(), n));
    case DType::Complex128:
      if (!check(tp.double_data_size(), 2)) return sizeError(static_cast<size_t>(tp.double_data_size()), "double_data");
      return Tensor(*dt, dims, packAs<double>(tp.double_data(), 2 * n));
    case DType::Int64:
      if (!check(tp.int64_data_size())) return sizeError(static_cast<size_t>(tp.int64_data_size()), "int64_data");
      return Tensor(*dt, dims, packAs<int64_t>(tp.int64_data(), n));
    case DType::UInt32:
      if (!check(tp.uint64_data_size())) return sizeError(static_cast<size_t>(tp.uint64_data_size()), "uint64_data");
      return Tensor(*dt, dims, packAs<uint32_t>(tp.uint64_data(), n));
    case DType::UInt64:
      if (!check(tp.uint64_data_size())) return sizeError(static_cast<size_t>(tp.uint64_data_size()), "uint64_data");
      return Tensor(*dt, dims, packAs<uint64_t>(tp.uint64_data(), n));
    case DType::Int32:
      if (!check(tp.int32_data_size())) return sizeError(static_cast<size_t>(tp.int32_data_size()), "int32_data");
      return Tensor(*dt, dims, packAs<int32_t>(tp.int32_data(), n));
    case DType::Int16:
      if (!check(tp.int32_data_size())) return sizeError(static_cast<size_t>(tp.int32_data_size()), "int32_data");
      return Tensor(*dt, dims, packAs<int16_t>(tp.int32_data(), n));
    case DType::UInt16:
    case DType::Float16:
    case DType::BFloat16:
      if (!check(tp.int32_data_size())) return sizeError(static_cast<size_t>(tp.int32_data_size()), "int32_data");
      return Tensor(*dt, dims, packAs<uint16_t>(tp.int32_data(), n));
    case DType::Int8:
      if (!check(tp.int32_data_size())) return sizeError(static_cast<size_t>(tp.int32_data_size()), "int32_data");
      return Tensor(*dt, dims, packAs<int8_t>(tp.int32_data(), n));
    case DType::UInt8:
    case DType::Bool:
      if (!check(tp.int32_data_size())) return sizeError(static_cast<size_t>(tp.int32_data_size()), "int32_data");
      return Tensor(*dt, dims, packAs<uint8_t>(tp.int32_data(), n));
    default: break;
  }
  return Error::badInput(where + ": cannot read data of type " + std::string(dtypeName(*dt)));
}

Result<Tensor> sparseToDense(const onnx::SparseTensorProto& sp, const std::string& baseDir,
                             const std::string& where) {
  auto values = tensorFromProto(sp.values(), baseDir, where + " (values)");
  if (!values.ok()) return values.error();
  auto indices = tensorFromProto(sp.indices(), baseDir, where + " (indices)");
  if (!indices.ok()) return indices.error();
  std::vector<int64_t> dims(sp.dims().begin(), sp.dims().end());
  int64_t numel = 1;
  for (int64_t d : dims) numel *= d;
  const size_t es = dtypeSize(values->dtype());
  if (es == 0) return Error::badInput(where + ": sparse tensor of unsupported type");
  std::vector<uint8_t> dense(static_cast<size_t>(numel) * es, 0);
  const int64_t nnz = values->numel();
  auto idx = indices->toInt64s();
  const bool coords = indices->dims().size() == 2;
  for (int64_t k = 0; k < nnz; ++k) {
    int64_t lin = 0;
    if (coords) {
      for (size_t r = 0; r < dims.size(); ++r)
        lin = lin * dims[r] + idx[static_cast<size_t>(k) * dims.size() + r];
    } else {
      lin = idx[static_cast<size_t>(k)];
    }
    if (lin < 0 || lin >= numel) return Error::badInput(where + ": sparse index out of range");
    std::memcpy(dense.data() + static_cast<size_t>(lin) * es,
                values->rawData() + static_cast<size_t>(k) * es, es);
  }
  return Tensor(values->dtype(), dims, std::move(dense));
}

void tensorToProto(const Tensor& t, const std::string& name, onnx::TensorProto* tp) {
  tp->set_name(name);
  tp->set_data_type(static_cast<int32_t>(t.dtype()));
  for (int64_t d : t.dims()) tp->add_dims(d);
  if (t.dtype() == DType::String) {
    for (const auto& s : t.strings()) tp->add_string_data(s);
    return;
  }
  tp->set_raw_data(reinterpret_cast<const char*>(t.rawData()), t.byteSize());
}

void typeFromProto(const onnx::TypeProto& tp, Value& v) {
  if (!tp.has_tensor_type()) {
    if (tp.value_case() != onnx::TypeProto::VALUE_NOT_SET) v.opaqueType = tp.SerializeAsString();
    return;
  }
  const auto& tt = tp.tensor_type();
  if (auto dt = dtypeFromInt(tt.elem_type())) v.dtype = *dt;
  if (!tt.has_shape()) {
    v.shape = Shape();
    return;
  }
  std::vector<Dim> dims;
  for (const auto& d : tt.shape().dim()) {
    if (d.has_dim_value()) dims.emplace_back(d.dim_value());
    else if (d.has_dim_param() && !d.dim_param().empty()) dims.push_back(Dim::sym(d.dim_param()));
    else dims.emplace_back();
  }
  v.shape = Shape(std::move(dims));
}

void typeToProto(const Value& v, onnx::TypeProto* tp) {
  if (!v.opaqueType.empty()) {
    tp->ParseFromString(v.opaqueType);
    return;
  }
  auto* tt = tp->mutable_tensor_type();
  tt->set_elem_type(static_cast<int32_t>(v.dtype));
  if (!v.shape.rankKnown) return;
  auto* sh = tt->mutable_shape();
  for (const auto& d : v.shape.dims) {
    auto* pd = sh->add_dim();
    if (v.shapeFromTrace) continue;  // the rank holds; the dims were one run's data
    if (d.isStatic()) pd->set_dim_value(d.value);
    else if (!d.symbol.empty()) pd->set_dim_param(d.symbol);
  }
}

}  // namespace fw::onnxio
